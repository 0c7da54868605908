export { ENCODINGS, DEFAULT_ENCODING, isEncodingName, TokenCounter, tokenCounter, countTokens } from './token-counter';
export type { EncodingName } from './token-counter';
