import { analyzeQuery } from './analyzer';
import type { Bm25Index } from './bm25-index';
import { MAX_QUERY_CHARS } from './query-terms';
import { knownSlotsOf } from './known-tools';
import { ENCODER } from './request-encoder';
import type { SearchHit } from './search-types';
import { ToolEncodings } from './tool-encodings';

/** What a place in a ranking counts in the merges below: `1 / (ENCODER.rankConstant + place)`. */
const reciprocalRank = (place: number): number => 1 / (ENCODER.rankConstant + place);

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
    .forEach((hit, rank) => merged.set(hit.index, { value: reciprocalRank(rank), hit, place: rank }));
  nearest.slice(0, ENCODER.nearest).forEach(({ index, similarity }, rank) => {
    if (similarity <= 0) return;
    const value = ENCODER.weight * reciprocalRank(rank);
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

/**
 * Re-orders the tools of `pool` the encoder knows (`known`) among the places they hold, by the
 * same reciprocal-rank sum as `mergeRankings` (lexical place, and rank by `similarities` among
 * them when nearer than orthogonal); other tools keep their places, and each place keeps its
 * score, so the scores still fall down the list. Undefined when fewer than two are known or the
 * order does not change.
 */
export function reorderKnown(
  pool: readonly SearchHit[],
  known: (index: number) => boolean,
  similarities: (indexes: readonly number[]) => number[] | undefined,
): SearchHit[] | undefined {
  const places = pool.flatMap((hit, place) => (known(hit.index) ? [place] : []));
  if (places.length < 2) return undefined;
  const cosines = similarities(places.map((place) => (pool[place] as SearchHit).index));
  if (cosines === undefined) return undefined;
  const byCosine = places.map((_, at) => at).sort((a, b) => (cosines[b] as number) - (cosines[a] as number) || a - b);
  const value = places.map((place) => reciprocalRank(place));
  byCosine.forEach((at, rank) => {
    if ((cosines[at] as number) > 0) value[at] = (value[at] as number) + ENCODER.weight * reciprocalRank(rank);
  });
  const order = places.map((_, at) => at).sort((a, b) => (value[b] as number) - (value[a] as number) || a - b);
  if (order.every((at, rank) => at === rank)) return undefined;
  const reordered = [...pool];
  order.forEach((at, rank) => {
    const place = places[rank] as number;
    const moved = pool[places[at] as number] as SearchHit;
    reordered[place] = { ...moved, score: (pool[place] as SearchHit).score };
  });
  return reordered;
}

/** The request encoder's part in one engine's answers: its tools' vectors and the merge. */
export class EncoderMerge {
  readonly #encodings: ToolEncodings;
  readonly #names: readonly string[];
  /** Per tool: 1 when the encoder was trained for it (`known-tools.ts`). */
  readonly #known: Uint8Array;

  /** `slots`: each tool's place in the known-tools list (`knownSlotsOf`), computed here when not given. */
  constructor(index: Bm25Index, names: readonly string[], slots: Int32Array = knownSlotsOf(index.documents)) {
    this.#encodings = new ToolEncodings(index);
    this.#names = names;
    this.#known = Uint8Array.from(slots, (slot) => (slot >= 0 ? 1 : 0));
  }

  /**
   * A confident answer's first `ENCODER.lexical` hits with the tools the encoder was trained for
   * re-ordered by it among their places (`reorderKnown`), the rest of `hits` after them; undefined
   * when nothing moves, the request has no word the encoder knows, or the tools' vectors are still
   * being built. One dot product per known tool of the pool: no scan of the catalog.
   */
  reordered(requestTerms: readonly string[], hits: readonly SearchHit[]): SearchHit[] | undefined {
    if (hits.length < 2 || hits[0]?.reason !== 'bm25') return undefined;
    const known = this.#known;
    const pool = hits.slice(0, ENCODER.lexical);
    const reordered = reorderKnown(
      pool,
      (index) => known[index] === 1,
      (indexes) => this.#encodings.similarities(requestTerms, indexes),
    );
    return reordered === undefined ? undefined : [...reordered, ...hits.slice(pool.length)];
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
  merged(
    requestTerms: readonly string[],
    hits: readonly SearchHit[],
    limit: number,
    confidence: number,
  ): SearchHit[] | undefined {
    if (confidence >= ENCODER.gate || hits.length === 0) return undefined;
    const nearest = this.#encodings.nearest(requestTerms, ENCODER.nearest);
    if (nearest.length === 0) return undefined;
    return mergeRankings(hits, nearest, (index) => this.#names[index] ?? '', limit);
  }
}
