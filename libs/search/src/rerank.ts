import type { Bm25Index } from './bm25-index';

/**
 * A term's postings are searched per candidate (binary search) rather than streamed once they are
 * this many times longer than the pool: streaming every posting of a common term ("get", "data")
 * again was most of the re-ranking's cost on long requests. Both ways find the same postings.
 */
const SEARCH_FROM_POSTINGS_PER_CANDIDATE = 24;

/**
 * The re-ranking of one engine's candidate pool, with scratch arrays it owns and reuses from query
 * to query (grown when a query needs more): a query allocates nothing here. The engine is shared
 * by every session on a catalog, so nothing in the scratch outlives the call that fills it.
 */
export class Reranker {
  readonly #index: Bm25Index;
  readonly #nameBonus: number;
  readonly #diversity: number;
  /** Per document: its place in the pool plus one (0: not a candidate). Zero between calls. */
  readonly #slot: Int32Array;
  /** Per term: 1 for the current query's terms (for the name reward). Zero between calls. */
  readonly #marks: Uint8Array;
  #rewards = new Float64Array(0);
  /** Candidate by term: the term's weighted contribution to the candidate's score. */
  #contributions = new Float64Array(0);
  #weights = new Float64Array(0);
  #taken = new Uint8Array(0);
  #ids = new Int32Array(0);
  #scores = new Float64Array(0);
  /** Per pick: its place in the pool (its row of `#contributions`). */
  #picks = new Int32Array(0);
  #termCount = 0;

  constructor(index: Bm25Index, nameBonus: number, diversity: number) {
    this.#index = index;
    this.#nameBonus = nameBonus;
    this.#diversity = diversity;
    this.#slot = new Int32Array(index.size);
    this.#marks = new Uint8Array(index.termCount);
  }

  /** The picked ids of the last `rerank`, best first (its return value says how many). */
  get ids(): Int32Array {
    return this.#ids;
  }

  /** The picked scores of the last `rerank`, beside `ids`. */
  get scores(): Float64Array {
    return this.#scores;
  }

  /**
   * Whether the pick at `pick` of the last `rerank` has the query term at `term` (a posting of it:
   * every posting's contribution is positive, and so is the weight of every term the request says).
   */
  contributes(term: number, pick: number): boolean {
    return (this.#contributions[(this.#picks[pick] as number) * this.#termCount + term] as number) > 0;
  }

  /**
   * Orders the first `count` candidates: each one's BM25F score (per-term contributions, weighted
   * by how much each term is still "open" under the diversity rule) times the name reward, plus
   * its source boost; picked greedily, at most `limit`. Returns how many were picked (`ids`, `scores`).
   */
  rerank(
    candidates: Int32Array,
    count: number,
    boosts: Float64Array,
    termIds: readonly number[],
    termWeights: readonly number[],
    limit: number,
  ): number {
    const terms = termIds.length;
    this.#termCount = terms;
    this.#reserve(count, terms, limit);
    const rewards = this.#rewards;
    const contributions = this.#contributions;
    contributions.fill(0, 0, count * terms);
    const marks = this.#marks;
    for (const termId of termIds) marks[termId] = 1;
    for (let c = 0; c < count; c += 1)
      rewards[c] = 1 + this.#nameBonus * this.#index.nameShare(candidates[c] as number, marks);
    for (const termId of termIds) marks[termId] = 0;
    this.#fillContributions(candidates, count, termIds, termWeights);
    const weights = this.#weights;
    weights.fill(1, 0, terms);
    const taken = this.#taken;
    taken.fill(0, 0, count);
    const ids = this.#ids;
    const scores = this.#scores;
    const decay = this.#diversity;
    let picked = 0;
    while (picked < limit) {
      let best = -1;
      let bestScore = -1;
      for (let c = 0; c < count; c += 1) {
        if (taken[c] === 1) continue;
        let sum = 0;
        for (let t = 0; t < terms; t += 1) sum += (contributions[c * terms + t] as number) * (weights[t] as number);
        const score = sum * (rewards[c] as number) + (boosts[c] as number);
        const id = candidates[c] as number;
        if (score > bestScore || (score === bestScore && best >= 0 && id < (candidates[best] as number))) {
          best = c;
          bestScore = score;
        }
      }
      if (best < 0) break;
      taken[best] = 1;
      ids[picked] = candidates[best] as number;
      this.#picks[picked] = best;
      scores[picked] = bestScore;
      picked += 1;
      if (decay < 1) {
        for (let t = 0; t < terms; t += 1) {
          if ((contributions[best * terms + t] as number) > 0) weights[t] = (weights[t] as number) * decay;
        }
      }
    }
    return picked;
  }

  /**
   * Picks the candidates' contributions out of each term's postings: one pass over a short
   * posting list, a binary search per candidate in a long one.
   */
  #fillContributions(
    candidates: Int32Array,
    count: number,
    termIds: readonly number[],
    termWeights: readonly number[],
  ): void {
    const terms = termIds.length;
    const contributions = this.#contributions;
    const slot = this.#slot;
    const docs = this.#index.postingDocs;
    const scores = this.#index.postingScores;
    for (let c = 0; c < count; c += 1) slot[candidates[c] as number] = c + 1;
    for (let t = 0; t < terms; t += 1) {
      const weight = termWeights[t] as number;
      const termId = termIds[t] as number;
      const from = this.#index.postingStart(termId);
      const length = this.#index.documentFrequency(termId);
      const to = from + length;
      if (length <= count * SEARCH_FROM_POSTINGS_PER_CANDIDATE) {
        for (let i = from; i < to; i += 1) {
          const c = (slot[docs[i] as number] as number) - 1;
          if (c >= 0) contributions[c * terms + t] = weight * (scores[i] as number);
        }
        continue;
      }
      for (let c = 0; c < count; c += 1) {
        const doc = candidates[c] as number;
        let low = from;
        let high = to - 1;
        while (low <= high) {
          const middle = (low + high) >> 1;
          const value = docs[middle] as number;
          if (value === doc) {
            contributions[c * terms + t] = weight * (scores[middle] as number);
            break;
          }
          if (value < doc) low = middle + 1;
          else high = middle - 1;
        }
      }
    }
    for (let c = 0; c < count; c += 1) slot[candidates[c] as number] = 0;
  }

  /** Grows the scratch arrays to hold `count` candidates of `terms` terms and `limit` picks. */
  #reserve(count: number, terms: number, limit: number): void {
    if (this.#rewards.length < count) {
      this.#rewards = new Float64Array(count);
      this.#taken = new Uint8Array(count);
    }
    if (this.#contributions.length < count * terms) this.#contributions = new Float64Array(count * terms);
    if (this.#weights.length < terms) this.#weights = new Float64Array(terms);
    const picks = Math.min(limit, count);
    if (this.#ids.length < picks) {
      this.#ids = new Int32Array(picks);
      this.#scores = new Float64Array(picks);
      this.#picks = new Int32Array(picks);
    }
  }
}
