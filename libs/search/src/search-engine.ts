import { Bm25Index } from './bm25-index';
import { DEFAULT_RANKING, type RankingOptions } from './ranking-options';
import { confidenceFeatures, confidenceOf } from './confidence';
import { CONFIDENCE_MODEL } from './generated/confidence-model';
import { buildQueryTerms, type QueryTerms } from './query-terms';
import type { SearchDocument } from './search-document';
import { TopK } from './top-k';
import { substringHits } from './name-fallback';
import { SUBSTRING_CONFIDENCE, type SearchAnswer, type SearchHit } from './search-types';
import { TypoMatcher } from './typo-matcher';

/**
 * How many BM25 candidates are re-ranked with the name reward and diversity before the limit is
 * applied: four per result asked for, at least 20. A pool of 50 ranked the public query sets the
 * same at limit 5 (R@5 equal to the third decimal) for about a fifth more time per query.
 */
const RERANK_POOL_MIN = 20;

/**
 * Search abstains only in catalogs at least this large. The confidence model was fitted on
 * catalogs of 527 to 6,685 tools; in a catalog of a few tools most words of any request are
 * unknown, and the model would read that as "no such capability".
 */
export const MIN_TOOLS_TO_ABSTAIN = 100;
const RERANK_POOL_PER_RESULT = 4;

/**
 * Searches one catalog. Built once per catalog (the build is the expensive part) and then shared:
 * it holds no per-session state, and a query touches only scratch buffers that are reset before
 * it returns.
 */
export class SearchEngine {
  readonly index: Bm25Index;
  readonly ranking: RankingOptions;
  readonly #exact = new Map<string, number[]>();
  readonly #scores: Float64Array;
  readonly #coverage: Float64Array;
  readonly #touched: Int32Array;
  /** Per document: the id of its source label; per source: the best score of the current query. */
  readonly #sourceOf: Int32Array;
  readonly #sourceBest: Float64Array;
  /** The documents grouped by source (`#sourceDocs[#sourceStarts[s], #sourceStarts[s + 1])`). */
  readonly #sourceDocs: Int32Array;
  readonly #sourceStarts: Int32Array;
  /**
   * The model-facing names, as their own array: documents come in several object shapes, and
   * reading `.name` off them in the query path kept throwing V8's optimised code away.
   */
  readonly #displayNames: readonly string[];
  /** Scratch: per document, its place in the re-ranking pool plus one (0: not a candidate). */
  readonly #candidateSlot: Int32Array;
  /** Scratch: 1 for the current query's term ids (for the name reward). */
  readonly #queryMarks: Uint8Array;
  /** Scratch: the candidate pool of the current query. */
  readonly #pool = new TopK(RERANK_POOL_MIN);
  #typos: TypoMatcher | undefined;
  /** The typo matcher, built on first use, for the confidence (one function, not one per query). */
  readonly #nearMisses = (): TypoMatcher => this.typos;

  constructor(documents: readonly SearchDocument[], ranking: RankingOptions = DEFAULT_RANKING) {
    this.index = new Bm25Index(documents, ranking.index);
    this.ranking = ranking;
    const add = (key: string, id: number) => {
      const list = this.#exact.get(key);
      if (list === undefined) this.#exact.set(key, [id]);
      else if (list[list.length - 1] !== id) list.push(id);
    };
    this.index.names.forEach((name, id) => add(name, id));
    this.index.originalNames.forEach((name, id) => add(name, id));
    this.#scores = new Float64Array(documents.length);
    this.#coverage = new Float64Array(documents.length);
    this.#touched = new Int32Array(documents.length);
    const sources = new Map<string, number>();
    this.#sourceOf = Int32Array.from(documents, (doc) => {
      let id = sources.get(doc.label);
      if (id === undefined) {
        id = sources.size;
        sources.set(doc.label, id);
      }
      return id;
    });
    this.#sourceBest = new Float64Array(sources.size);
    this.#sourceStarts = new Int32Array(sources.size + 1);
    for (const source of this.#sourceOf)
      this.#sourceStarts[source + 1] = (this.#sourceStarts[source + 1] as number) + 1;
    for (let source = 0; source < sources.size; source += 1)
      this.#sourceStarts[source + 1] =
        (this.#sourceStarts[source + 1] as number) + (this.#sourceStarts[source] as number);
    const fill = this.#sourceStarts.slice(0, sources.size);
    this.#sourceDocs = new Int32Array(documents.length);
    this.#sourceOf.forEach((source, doc) => (this.#sourceDocs[(fill[source] as number)++] = doc));
    this.#displayNames = documents.map((doc) => doc.name);
    this.#candidateSlot = new Int32Array(documents.length);
    this.#queryMarks = new Uint8Array(this.index.termCount);
  }

  get size(): number {
    return this.index.size;
  }

  /** The catalog position of a model-facing name (exact spelling), if the catalog has it. */
  positionOf(name: string): number | undefined {
    const ids = this.#exact.get(name.toLowerCase());
    if (ids === undefined) return undefined;
    for (const id of ids) if (this.#displayNames[id] === name) return id;
    return undefined;
  }

  /** The weighted index terms of a query and its IDF mass (see `buildQueryTerms`). */
  queryTerms(query: string): QueryTerms {
    return buildQueryTerms(this.index, query, () => this.typos, {
      expand: this.ranking.expand,
      weighTerms: this.ranking.weighTerms,
      expansionScale: this.ranking.expansionScale,
      correctTypos: this.ranking.correctTypos,
    });
  }

  /** Typo corrections against this catalog's terms; built on first use (most queries need none). */
  get typos(): TypoMatcher {
    this.#typos ??= new TypoMatcher(this.index.terms(), (id) => this.index.documentFrequency(id));
    return this.#typos;
  }

  /**
   * The best `limit` tools for one query: exact name matches first (model-facing or original
   * name), then BM25F with the name reward, admitted only above the coverage floor. When no query
   * term occurs in any tool, tool names that contain the query text are returned instead (seed 000:
   * "hub" finds the github tools).
   */
  search(query: string, limit: number): SearchHit[] {
    return this.answer(query, limit).hits;
  }

  /**
   * `search` with its confidence: the calibrated probability that the hits hold a right tool
   * (`confidence.ts`). Below `CONFIDENCE_MODEL.abstainBelow` (and with `ranking.abstain` on) the
   * answer is empty and the tools that would have been returned are kept in `nearest`, so a caller
   * can say "no good match" and name the closest sources.
   */
  answer(query: string, limit: number): SearchAnswer {
    const text = query.trim();
    if (text === '' || limit <= 0 || this.size === 0) return { hits: [], confidence: 0, nearest: [] };
    const lower = text.toLowerCase();
    const hits: SearchHit[] = [];
    const seen = new Set<number>();
    for (const id of this.#exact.get(lower) ?? []) {
      if (hits.length >= limit) break;
      hits.push({ index: id, name: this.#displayNames[id] ?? '', score: Number.POSITIVE_INFINITY, reason: 'exact' });
      seen.add(id);
    }
    if (hits.length >= limit) return { hits, confidence: 1, nearest: [] };

    const terms = this.queryTerms(text);
    if (terms.ids.length === 0) return this.fallback(hits, lower, limit);
    // Only added terms (typo corrections, expansions, renderings) and no word of the request's
    // own: a tool name containing the text is the surer answer when there is one ("hub").
    if (hits.length === 0 && !terms.origins.some((origin) => origin === 'query' || origin === 'implied')) {
      const named = substringHits(this.index, lower, limit);
      if (named.length > 0) return { hits: named, confidence: SUBSTRING_CONFIDENCE, nearest: [] };
    }
    const exact = hits.length;
    for (const { id, score } of this.rank(terms, limit, limit - hits.length, seen)) {
      hits.push({ index: id, name: this.#displayNames[id] ?? '', score, reason: 'bm25' });
    }
    if (exact > 0) return { hits, confidence: 1, nearest: [] };
    const confidence = confidenceOf(confidenceFeatures(this.index, terms, hits, text, this.#nearMisses));
    if (this.ranking.abstain && this.size >= MIN_TOOLS_TO_ABSTAIN && confidence < CONFIDENCE_MODEL.abstainBelow)
      return { hits: [], confidence, nearest: hits };
    return { hits, confidence, nearest: [] };
  }

  private fallback(hits: SearchHit[], lower: string, limit: number): SearchAnswer {
    if (hits.length > 0) return { hits, confidence: 1, nearest: [] };
    const named = substringHits(this.index, lower, limit);
    return { hits: named, confidence: named.length > 0 ? SUBSTRING_CONFIDENCE : 0, nearest: [] };
  }

  /**
   * BM25F over the query terms, the coverage floor and the source boost, then the re-ranking: the
   * best `wanted` tools not in `seen`. Kept apart from `search`, whose result array changes shape
   * as it fills: when the two were one function, V8 threw the optimised code of the whole hot path
   * away on nearly every call ("wrong map" deoptimisations, seen with `--trace-deopt`).
   */
  private rank(terms: QueryTerms, limit: number, wanted: number, seen: ReadonlySet<number>) {
    const { ids: termIds, weights: termWeights, mass: queryMass } = terms;

    const scores = this.#scores;
    const coverage = this.#coverage;
    const touched = this.#touched;
    const docs = this.index.postingDocs;
    const contributions = this.index.postingScores;
    let touchedCount = 0;
    // A long request touches most of the catalog: then the documents it touched are found with one
    // scan afterwards, which is cheaper than noting each first touch in the hot loop.
    let postingCount = 0;
    for (const termId of termIds) postingCount += this.index.documentFrequency(termId);
    const dense = postingCount * 4 >= this.size;
    for (let termIndex = 0; termIndex < termIds.length; termIndex += 1) {
      const termId = termIds[termIndex] as number;
      const weight = termWeights[termIndex] as number;
      const idf = this.index.idf(termId) * weight;
      const from = this.index.postingStart(termId);
      const to = from + this.index.documentFrequency(termId);
      // Hot loops: plain indexed access on typed arrays (every index is in range by construction).
      if (dense) {
        for (let i = from; i < to; i += 1) {
          const doc = docs[i] as number;
          scores[doc] = (scores[doc] as number) + weight * (contributions[i] as number);
          coverage[doc] = (coverage[doc] as number) + idf;
        }
      } else {
        for (let i = from; i < to; i += 1) {
          const doc = docs[i] as number;
          if (coverage[doc] === 0) touched[touchedCount++] = doc;
          scores[doc] = (scores[doc] as number) + weight * (contributions[i] as number);
          coverage[doc] = (coverage[doc] as number) + idf;
        }
      }
    }
    const floor = this.ranking.minCoverage * queryMass;
    const sourceOf = this.#sourceOf;
    const sourceBest = this.#sourceBest;
    const boost = this.ranking.sourceBoost;
    // The candidate pool. Most documents fall below the pool's worst entry and are dropped with
    // one comparison. The pool keeps the best by (score, then the lower id) whatever the order of
    // the offers, so the two paths below rank alike.
    const pool = this.#pool;
    pool.reset(Math.max(RERANK_POOL_MIN, limit * RERANK_POOL_PER_RESULT));
    const skipSeen = seen.size > 0;
    const capacity = pool.capacity;
    let floorScore = -1; // once the pool is full: the score an offer must reach (ties go to lower ids)
    if (dense) {
      // Source by source: its best score, then its documents, skipping a whole source when even
      // its best document with the boost could not reach the pool.
      const order = this.#sourceDocs;
      const starts = this.#sourceStarts;
      const sourceCount = sourceBest.length;
      for (let source = 0; source < sourceCount; source += 1) {
        const to = starts[source + 1] as number;
        let best = 0;
        for (let k = starts[source] as number; k < to; k += 1) {
          const score = scores[order[k] as number] as number;
          if (score > best) best = score;
        }
        sourceBest[source] = best;
      }
      for (let source = 0; source < sourceCount; source += 1) {
        const best = sourceBest[source] as number;
        const extra = boost * best;
        // No document of this source can total more than best + extra (0: nothing touched it).
        if (best === 0 || best + extra < floorScore) continue;
        const to = starts[source + 1] as number;
        for (let k = starts[source] as number; k < to; k += 1) {
          const doc = order[k] as number;
          const score = scores[doc] as number;
          if (score === 0) continue; // every touched document's score is positive
          const total = score + extra;
          if (total >= floorScore && (coverage[doc] as number) >= floor && !(skipSeen && seen.has(doc))) {
            pool.offer(doc, total);
            if (pool.size === capacity) floorScore = pool.worstScore;
          }
        }
      }
    } else {
      for (let i = 0; i < touchedCount; i += 1) {
        const doc = touched[i] as number;
        const source = sourceOf[doc] as number;
        const score = scores[doc] as number;
        if (score > (sourceBest[source] as number)) sourceBest[source] = score;
      }
      for (let i = 0; i < touchedCount; i += 1) {
        const doc = touched[i] as number;
        const total = (scores[doc] as number) + boost * (sourceBest[sourceOf[doc] as number] as number);
        if (total >= floorScore && (coverage[doc] as number) >= floor && !(skipSeen && seen.has(doc))) {
          pool.offer(doc, total);
          if (pool.size === capacity) floorScore = pool.worstScore;
        }
      }
    }
    const candidates = pool.ids();
    const boosts = new Float64Array(candidates.length);
    candidates.forEach((id, index) => (boosts[index] = boost * (sourceBest[sourceOf[id] as number] as number)));
    if (dense) {
      scores.fill(0);
      coverage.fill(0);
      sourceBest.fill(0);
    } else {
      for (let i = 0; i < touchedCount; i += 1) {
        const doc = touched[i] as number;
        scores[doc] = 0;
        coverage[doc] = 0;
        sourceBest[sourceOf[doc] as number] = 0;
      }
    }
    return this.rerank(candidates, boosts, termIds, termWeights, wanted);
  }

  /**
   * Orders the candidate pool: each candidate's BM25F score (per-term contributions, weighted by
   * how much each term is still "open" under the diversity rule) times the name reward, plus the
   * source boost; picked greedily. Contributions sit in one flat array, candidate by term.
   */
  private rerank(
    candidates: Int32Array,
    boosts: Float64Array,
    termIds: readonly number[],
    termWeights: readonly number[],
    limit: number,
  ): { id: number; score: number }[] {
    const terms = termIds.length;
    const count = candidates.length;
    const marks = this.#queryMarks;
    for (const termId of termIds) marks[termId] = 1;
    const rewards = new Float64Array(count);
    const contributions = new Float64Array(count * terms);
    const slot = this.#candidateSlot;
    for (let c = 0; c < count; c += 1) {
      const id = candidates[c] as number;
      slot[id] = c + 1;
      rewards[c] = 1 + this.ranking.nameBonus * this.index.nameShare(id, marks);
    }
    for (const termId of termIds) marks[termId] = 0;
    // One pass over each term's postings picks out the candidates' contributions. (A galloping
    // search per candidate measured no faster: the postings are short enough to stream.)
    const docs = this.index.postingDocs;
    const scores = this.index.postingScores;
    for (let t = 0; t < terms; t += 1) {
      const weight = termWeights[t] as number;
      const termId = termIds[t] as number;
      const from = this.index.postingStart(termId);
      const to = from + this.index.documentFrequency(termId);
      for (let i = from; i < to; i += 1) {
        const c = (slot[docs[i] as number] as number) - 1;
        if (c >= 0) contributions[c * terms + t] = weight * (scores[i] as number);
      }
    }
    for (let c = 0; c < count; c += 1) slot[candidates[c] as number] = 0;
    const weights = new Float64Array(terms).fill(1);
    const taken = new Uint8Array(count);
    const out: { id: number; score: number }[] = [];
    const decay = this.ranking.diversity;
    while (out.length < limit) {
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
      out.push({ id: candidates[best] as number, score: bestScore });
      if (decay < 1) {
        for (let t = 0; t < terms; t += 1) {
          if ((contributions[best * terms + t] as number) > 0) weights[t] = (weights[t] as number) * decay;
        }
      }
    }
    return out;
  }
}
