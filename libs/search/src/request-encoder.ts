import { words, wordTerms } from './analyzer';
import { fieldTexts } from './bm25-index';
import { REQUEST_ENCODER } from './generated/request-encoder';
import type { SearchDocument } from './search-document';

/**
 * The request encoder: one learned vector per word (`scripts/learn-request-encoder.ts`, trained at
 * build time on the synthetic request / tool pairs of `training/`), so that a request and the
 * tools that serve it land near each other even when they share no word ("what hour is that in
 * São Paulo" and a time-zone converter). A request is the sum of its words' vectors; a tool is
 * the IDF-weighted sum of its text's words'; both are compared by cosine.
 *
 * Search asks it only about answers it doubts (`ENCODER.gate`): their lexical ranking and the
 * encoder's nearest tools are merged by reciprocal rank. Confident answers, exact names and the
 * decision to answer at all stay lexical.
 */
export const ENCODER = {
  /** Answers with a lexical confidence below this are merged with the encoder's nearest tools. */
  gate: 0.5,
  /** Lexical hits merged (the first ones of the lexical ranking). */
  lexical: 10,
  /** Nearest tools by the encoder merged. */
  nearest: 30,
  /** Reciprocal-rank constant: a place counts 1 / (`rankConstant` + place). */
  rankConstant: 10,
  /** Weight of the encoder's ranks beside the lexical ones (1: alike). */
  weight: 1,
} as const;

/** Words of a tool's text encoded (its name and description come first). */
const MAX_TOOL_TERMS = 80;
/** Words of a request encoded: a long request's first ones say what it is about. */
const MAX_REQUEST_TERMS = 64;

interface Table {
  readonly dimensions: number;
  /** The words, sorted (as the generator writes them): a word's place is its id. */
  readonly words: readonly string[];
  /** Per word: the factor that turns its bytes back into its vector. */
  readonly scales: Float32Array;
  readonly bytes: Int8Array;
}
let table: Table | undefined;

/** Parses the generated table once per process. */
export function loadRequestEncoder(): Table {
  if (table !== undefined) return table;
  const entries = REQUEST_ENCODER.terms.split(' ');
  // A sorted array searched by halves rather than a map: less memory for ten thousand words.
  const list: string[] = new Array<string>(entries.length);
  const scales = new Float32Array(entries.length);
  entries.forEach((entry, at) => {
    const colon = entry.lastIndexOf(':');
    list[at] = entry.slice(0, colon);
    scales[at] = Number(entry.slice(colon + 1));
  });
  const binary = atob(REQUEST_ENCODER.vectors);
  if (binary.length !== entries.length * REQUEST_ENCODER.dimensions)
    throw new Error(
      `generated/request-encoder.ts holds ${binary.length} bytes for ${entries.length} words × ${REQUEST_ENCODER.dimensions}: run scripts/learn-request-encoder.ts again`,
    );
  const bytes = new Int8Array(binary.length);
  for (let at = 0; at < binary.length; at += 1) bytes[at] = (binary.charCodeAt(at) << 24) >> 24;
  table = { dimensions: REQUEST_ENCODER.dimensions, words: list, scales, bytes };
  return table;
}

/**
 * A request's words as the encoder counts them: the first ones, a repeated word at each
 * occurrence. Training counted each word once; counting once here too scored a little lower on
 * the tuning parts (728.4 against 729.6 hits of 919), inside the spread from seed to seed.
 */
export function requestBag(requestTerms: readonly string[]): { term: string; weight: number }[] {
  return requestTerms.slice(0, MAX_REQUEST_TERMS).map((term) => ({ term, weight: 1 }));
}

/** The place of a word in the sorted word list, if it has one. */
function wordId(words: readonly string[], term: string): number | undefined {
  let low = 0;
  let high = words.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const word = words[middle] as string;
    if (word === term) return middle;
    if (word < term) low = middle + 1;
    else high = middle - 1;
  }
  return undefined;
}

/** The words of a tool's text that the encoder reads, each once, in order (training reads the same). */
export function encodedToolTerms(document: SearchDocument): string[] {
  // The index's own field texts (tags and the source's description left out).
  const fields = fieldTexts(document);
  const texts = [fields.name, fields.label, fields.description, fields.parameters, fields.parameterDocs];
  // The first `MAX_TOOL_TERMS` distinct terms, in order: the rest of a long text is not read.
  const terms = new Set<string>();
  for (const text of texts)
    for (const word of words(text))
      for (const term of wordTerms(word)) {
        terms.add(term);
        if (terms.size === MAX_TOOL_TERMS) return [...terms];
      }
  return [...terms];
}

/**
 * Sums weighted word vectors into `into` and scales it to unit length; false when no word has a
 * vector (`into` is then all zeros).
 */
export function encodeTerms(
  terms: readonly { term: string; weight: number }[],
  into: Float32Array,
  encoder: Table = loadRequestEncoder(),
  idOf: (term: string) => number | undefined = (term) => wordId(encoder.words, term),
): boolean {
  const { scales, bytes, dimensions } = encoder;
  into.fill(0);
  let found = false;
  for (const { term, weight } of terms) {
    const id = weight > 0 ? idOf(term) : undefined;
    if (id === undefined) continue;
    found = true;
    const factor = weight * (scales[id] as number);
    const from = id * dimensions;
    for (let k = 0; k < dimensions; k += 1) into[k] = (into[k] as number) + factor * (bytes[from + k] as number);
  }
  let norm = 0;
  for (let k = 0; k < dimensions; k += 1) norm += (into[k] as number) ** 2;
  if (!found || norm === 0) return false;
  const inverse = 1 / Math.sqrt(norm);
  for (let k = 0; k < dimensions; k += 1) into[k] = (into[k] as number) * inverse;
  return true;
}
