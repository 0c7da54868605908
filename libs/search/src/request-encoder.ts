import { analyzeQuery, words, wordTerms } from './analyzer';
import type { Bm25Index } from './bm25-index';
import { MAX_QUERY_CHARS } from './query-terms';
import { REQUEST_ENCODER } from './generated/request-encoder';
import type { SearchDocument } from './search-document';
import type { SearchHit } from './search-types';

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

/** Tools encoded per turn of the event loop when built in the background (about 10 ms). */
const BACKGROUND_SLICE = 512;
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

/** The dot product of `request` with the vector of `dimensions` bytes at `from` (four at a time). */
function dotAt(request: Float32Array, vectors: Int8Array, from: number, dimensions: number): number {
  let a = 0;
  let b = 0;
  let c = 0;
  let d = 0;
  let k = 0;
  for (; k + 3 < dimensions; k += 4) {
    a += (request[k] as number) * (vectors[from + k] as number);
    b += (request[k + 1] as number) * (vectors[from + k + 1] as number);
    c += (request[k + 2] as number) * (vectors[from + k + 2] as number);
    d += (request[k + 3] as number) * (vectors[from + k + 3] as number);
  }
  for (; k < dimensions; k += 1) a += (request[k] as number) * (vectors[from + k] as number);
  return a + b + c + d;
}

/**
 * A request's words as the encoder counts them: the first ones, a repeated word at each
 * occurrence. Training counted each word once; counting once here too scored a little lower on
 * the tuning parts (728.4 against 729.6 hits of 919), inside the spread from seed to seed.
 */
function requestBag(requestTerms: readonly string[]): { term: string; weight: number }[] {
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
  const texts = [
    document.originalName === document.name ? document.name : `${document.originalName} ${document.name}`,
    document.label,
    document.description,
    document.parameters.join(' '),
    document.parameterDocs,
  ];
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

/**
 * One catalog's tools as unit vectors (signed bytes, 127 = 1), built on first use (most answers
 * are confident and never ask) or in the background (`buildInBackground`: the daemon's engines).
 * Shared like the engine that owns it; a query allocates only its own request vector and result.
 */
export class ToolEncodings {
  readonly #index: Bm25Index;
  /** The tools' vectors, filled up to `#built`; complete once `#built` is the catalog's size. */
  #vectors: Int8Array | undefined;
  #built = 0;
  /** While built in slices (`buildInBackground`): the next slice's timer. */
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** While building: word → id (half a million lookups; queries search the sorted list instead). */
  #ids: Map<string, number> | undefined;
  /** Encoding failed once: the encoder stays off for this catalog. */
  #failed = false;
  #scans = 0;
  readonly #dimensions: number;
  /** Scratch for one request's vector. */
  readonly #request: Float32Array;

  constructor(index: Bm25Index) {
    this.#index = index;
    this.#dimensions = loadRequestEncoder().dimensions;
    this.#request = new Float32Array(this.#dimensions);
  }

  /** Whether every tool's vector is built. */
  get ready(): boolean {
    return this.#vectors !== undefined && this.#built === this.#index.size;
  }

  /** Builds the tools' vectors that are not built yet, now. */
  build(): void {
    this.#encode(this.#index.size);
  }

  /**
   * Builds the tools' vectors in slices of `slice` tools, each in its own turn of the event loop,
   * so a daemon keeps serving meanwhile (6,685 tools: about 124 ms in all). Until they are all
   * built, `nearest` answers nothing rather than building them on the query's time.
   */
  buildInBackground(slice = BACKGROUND_SLICE): void {
    if (this.ready || this.#failed || this.#timer !== undefined) return;
    const step = () => {
      this.#timer = undefined;
      this.#encode(this.#built + slice);
      if (this.ready || this.#failed) return;
      this.#timer = setTimeout(step, 0);
      // Node: a pending slice does not keep a process alive that has nothing else to do.
      (this.#timer as { unref?: () => void }).unref?.();
    };
    this.#timer = setTimeout(step, 0);
    (this.#timer as { unref?: () => void }).unref?.();
  }

  /**
   * Encodes the tools from `#built` up to (not including) `until`. Should it ever fail, the
   * encoder is off for this catalog (`#failed`): doubtful answers stay lexical, nothing retries it
   * on a query's time.
   */
  #encode(until: number): void {
    if (this.#failed) return;
    try {
      this.#encodeRange(until);
    } catch {
      this.#failed = true;
      this.#vectors = undefined;
      this.#ids = undefined;
      if (this.#timer !== undefined) clearTimeout(this.#timer);
      this.#timer = undefined;
    }
  }

  #encodeRange(until: number): void {
    const index = this.#index;
    const end = Math.min(until, index.size);
    if (this.#built >= end && this.#vectors !== undefined) return;
    const dimensions = this.#dimensions;
    const encoder = loadRequestEncoder();
    this.#vectors ??= new Int8Array(index.size * dimensions);
    this.#ids ??= new Map(encoder.words.map((word, id) => [word, id]));
    const ids = this.#ids;
    const idOf = (term: string) => ids.get(term);
    const vectors = this.#vectors;
    const vector = new Float32Array(dimensions);
    for (let doc = this.#built; doc < end; doc += 1) {
      const terms = encodedToolTerms(index.documents[doc] as SearchDocument).map((term) => {
        const id = index.termId(term);
        return { term, weight: id === undefined ? 0 : index.idf(id) };
      });
      if (!encodeTerms(terms, vector, encoder, idOf)) continue;
      for (let k = 0; k < dimensions; k += 1) vectors[doc * dimensions + k] = Math.round((vector[k] as number) * 127);
    }
    this.#built = end;
    if (this.ready) {
      this.#ids = undefined;
      if (this.#timer !== undefined) clearTimeout(this.#timer);
      this.#timer = undefined;
    }
  }

  /**
   * The `count` tools nearest a request's words (cosine, best first; ties to the lower position),
   * or none when no word of the request has a vector. Cost: one dot product per tool.
   */
  nearest(requestTerms: readonly string[], count: number): { index: number; similarity: number }[] {
    const terms = requestBag(requestTerms);
    const request = this.#request;
    if (!this.#usable() || !encodeTerms(terms, request)) return [];
    this.#scans += 1;
    const vectors = this.#vectors as Int8Array;
    const dimensions = this.#dimensions;
    const best: { index: number; similarity: number }[] = [];
    let worst = -Infinity;
    for (let doc = 0; doc < this.#index.size; doc += 1) {
      const dot = dotAt(request, vectors, doc * dimensions, dimensions);
      if (best.length === count && dot <= worst) continue;
      let at = best.length;
      while (at > 0 && (best[at - 1] as { similarity: number }).similarity < dot) at -= 1;
      best.splice(at, 0, { index: doc, similarity: dot });
      if (best.length > count) best.pop();
      if (best.length === count) worst = (best[count - 1] as { similarity: number }).similarity;
    }
    for (const entry of best) entry.similarity = Math.round((entry.similarity / 127) * 1000) / 1000;
    return best;
  }

  /** The cosine between a request's words and one tool, or undefined when no word has a vector. */
  similarity(requestTerms: readonly string[], doc: number): number | undefined {
    const terms = requestBag(requestTerms);
    if (doc < 0 || doc >= this.#index.size || !this.#usable() || !encodeTerms(terms, this.#request)) return undefined;
    const vectors = this.#vectors as Int8Array;
    let dot = 0;
    for (let k = 0; k < this.#dimensions; k += 1)
      dot += (this.#request[k] as number) * (vectors[doc * this.#dimensions + k] as number);
    return Math.round((dot / 127) * 1000) / 1000;
  }

  /**
   * Whether the tools' vectors can answer now: built (building the rest first unless a background
   * build is under way — no query waits for that), and never failed.
   */
  #usable(): boolean {
    if (this.#failed || this.#timer !== undefined) return false;
    this.build();
    return this.ready;
  }

  /** How many requests this catalog's vectors were scanned for (each costs one dot product per tool). */
  get scans(): number {
    return this.#scans;
  }

  /** Bytes held (for the memory bench): the tools' vectors once built. */
  get bytes(): number {
    return this.#vectors?.byteLength ?? 0;
  }
}

/**
 * Merges a doubtful lexical ranking with the encoder's nearest tools by reciprocal rank
 * (`ENCODER`). Scores stay on the lexical scale (the first hit's score, times each merged
 * value over the best), so later re-orderings by score (usage boosts) keep the merged order.
 * A tool only the encoder found is marked `reason: 'encoder'`.
 */
export function mergeRankings(
  lexical: readonly SearchHit[],
  nearest: readonly { index: number; similarity: number }[],
  name: (index: number) => string,
  limit: number,
): SearchHit[] {
  const merged = new Map<number, { value: number; hit: SearchHit | undefined; place: number }>();
  // Every lexical hit the answer may show takes part (at least `ENCODER.lexical`): a long answer
  // keeps its lexical tail. The encoder's tools count only when nearer than orthogonal.
  lexical
    .slice(0, Math.max(ENCODER.lexical, limit))
    .forEach((hit, rank) => merged.set(hit.index, { value: 1 / (ENCODER.rankConstant + rank), hit, place: rank }));
  nearest.slice(0, ENCODER.nearest).forEach(({ index, similarity }, rank) => {
    if (similarity <= 0) return;
    const value = ENCODER.weight / (ENCODER.rankConstant + rank);
    const seen = merged.get(index);
    if (seen === undefined) merged.set(index, { value, hit: undefined, place: Number.POSITIVE_INFINITY });
    else seen.value += value;
  });
  // Ties go to the lexical order, then to the lower position.
  const ordered = [...merged]
    .sort((a, b) => b[1].value - a[1].value || a[1].place - b[1].place || a[0] - b[0])
    .slice(0, limit);
  const top = lexical[0]?.score ?? 1;
  const best = ordered[0]?.[1].value ?? 1;
  return ordered.map(([index, { value, hit }]) => ({
    index,
    name: hit?.name ?? name(index),
    score: (top * value) / best,
    reason: hit === undefined ? 'encoder' : hit.reason,
  }));
}

/** Characters of a request the encoder reads (as the query terms do). */
const MAX_REQUEST_CHARS = MAX_QUERY_CHARS;

/** The request encoder's part in one engine's answers: its tools' vectors and the merge. */
export class EncoderMerge {
  readonly #encodings: ToolEncodings;
  readonly #names: readonly string[];

  constructor(index: Bm25Index, names: readonly string[]) {
    this.#encodings = new ToolEncodings(index);
    this.#names = names;
  }

  /**
   * Encodes the catalog's tools in slices, each in its own turn of the event loop (a daemon's
   * shared engines); until done, doubtful answers stay lexical. Without it, the first doubtful
   * answer encodes them on its own time.
   */
  prepare(): void {
    this.#encodings.buildInBackground();
  }

  /** See `SearchEngine.encoderScans`. */
  get scans(): number {
    return this.#encodings.scans;
  }

  similarity(request: string, index: number): number | undefined {
    return this.#encodings.similarity(analyzeQuery(request.slice(0, MAX_REQUEST_CHARS)), index);
  }

  /**
   * A doubtful answer's ranking (`hits`, at least `ENCODER.lexical` of them when the ranking has
   * as many) merged with the encoder's nearest tools; undefined when the answer is confident, or
   * the request has no word the encoder knows, or the tools' vectors are still being built.
   */
  merged(request: string, hits: readonly SearchHit[], limit: number, confidence: number): SearchHit[] | undefined {
    if (confidence >= ENCODER.gate || hits.length === 0) return undefined;
    const nearest = this.#encodings.nearest(analyzeQuery(request.slice(0, MAX_REQUEST_CHARS)), ENCODER.nearest);
    if (nearest.length === 0) return undefined;
    return mergeRankings(hits, nearest, (index) => this.#names[index] ?? '', limit);
  }
}
