export {
  ENCODINGS,
  DEFAULT_ENCODING,
  isEncodingName,
  TokenCounter,
  tokenCounter,
  countTokens,
  nativeTokenCounting,
  useNativeTokenCounting,
} from './token-counter';
export type { CountBatch, EncodingName } from './token-counter';
