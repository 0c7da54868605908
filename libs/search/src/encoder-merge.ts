import { analyzeQuery } from './analyzer';
import type { Bm25Index } from './bm25-index';
import { MAX_QUERY_CHARS } from './query-terms';
import { ENCODER } from './request-encoder';
import type { SearchAnswer, SearchHit } from './search-types';
import { ToolEncodings } from './tool-encodings';

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
    return this.#encodings.similarity(analyzeQuery(request.slice(0, MAX_QUERY_CHARS)), index);
  }

  /**
   * A doubtful answer's ranking (`hits`, at least `ENCODER.lexical` of them when the ranking has
   * as many) merged with the encoder's nearest tools; undefined when the answer is confident, or
   * the request has no word the encoder knows, or the tools' vectors are still being built.
   */
  merged(request: string, hits: readonly SearchHit[], limit: number, confidence: number): SearchHit[] | undefined {
    if (confidence >= ENCODER.gate || hits.length === 0) return undefined;
    const nearest = this.#encodings.nearest(analyzeQuery(request.slice(0, MAX_QUERY_CHARS)), ENCODER.nearest);
    if (nearest.length === 0) return undefined;
    return mergeRankings(hits, nearest, (index) => this.#names[index] ?? '', limit);
  }
}

/**
 * An answer search gives: its lexical hits (`shown`), merged with the request encoder's nearest
 * tools when the answer is doubtful and the engine has an encoder.
 */
export function givenAnswer(
  encoder: EncoderMerge | undefined,
  request: string,
  hits: readonly SearchHit[],
  shown: SearchHit[],
  limit: number,
  confidence: number,
  contextSupport?: number,
): SearchAnswer {
  const encoded = encoder?.merged(request, hits, limit, confidence);
  const answer: SearchAnswer =
    encoded === undefined
      ? { hits: shown, confidence, nearest: [] }
      : { hits: encoded, confidence, nearest: [], encoded: true, lexical: shown };
  return contextSupport === undefined ? answer : { ...answer, contextSupport };
}
