import { Bm25Index } from './bm25-index';
import { DEFAULT_RANKING, type RankingOptions } from './ranking-options';
import { confidenceFeatures, confidenceOf } from './confidence';
import { CONFIDENCE_MODEL } from './generated/confidence-model';
import { buildQueryTerms, type QueryTerms } from './query-terms';
import type { SearchDocument } from './search-document';
import { Reranker } from './rerank';
import { groupBySource } from './source-groups';
import { TopK } from './top-k';
import { fallbackAnswer, substringHits } from './name-fallback';
import { ContextCheck } from './context-check';
import { loadTermVectors } from './term-vectors';
import { JUDGED_TOOLS, SUBSTRING_CONFIDENCE, type SearchAnswer, type SearchHit } from './search-types';
import { TypoMatcher } from './typo-matcher';
import { givenAnswer, LearnedRanking, withheldAnswer } from './learned-ranking';
import { ENCODER } from './request-encoder';

/**
 * How many BM25 candidates are re-ranked with the name reward and diversity before the limit is
 * applied: four per result asked for, at least 40 — the pool of limit 10, so that limits 1 to 10
 * rank alike (the first five at limit 10 are limit 5's answer; `toolsearch eval` asks for ten).
 * Against 20: tuning material +2 hits of 1,069, StableToolBench frozen test 0.783 -> 0.788 at limit
 * 5, for about a tenth more CPU per request (BENCHMARKS.md, twenty-fourth session).
 */
const RERANK_POOL_MIN = 40;

/**
 * Search abstains only in catalogs at least this large. The confidence model was fitted on
 * catalogs of 527 to 6,685 tools; in a catalog of a few tools most words of any request are
 * unknown, and the model would read that as "no such capability".
 */
export const MIN_TOOLS_TO_ABSTAIN = 100;
const RERANK_POOL_PER_RESULT = 4;
/** The exact hits of a request that names no tool (most requests): nothing to skip. */
const NONE_SEEN: ReadonlySet<number> = new Set<number>();
/** `fillDensePool` lowers its gate by this factor: far more than the rounding of a total. */
const GATE_MARGIN = 1 - 1e-9;

/**
 * Searches one catalog. Built once per catalog (the build is the expensive part) and then shared:
 * it holds no per-session state, and a query touches only scratch buffers that are reset before
 * it returns, and the context check's cache of tool subjects (catalog data, nothing of a request).
 */
export class SearchEngine {
  readonly index: Bm25Index;
  readonly ranking: RankingOptions;
  readonly #exact = new Map<string, number[]>();
  /**
   * Scratch: per document, its score and its coverage side by side (`[2d]`, `[2d + 1]`): the
   * posting loop updates both, and one cache line then serves the pair.
   */
  readonly #sums: Float64Array;
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
  /** The context check of doubtful answers, with this catalog's cache of tool subjects. */
  readonly #context: ContextCheck;
  /** Scratch: the candidate pool of the current query, then its ids (best first) and source boosts. */
  readonly #pool = new TopK(RERANK_POOL_MIN);
  /** Scratch: the best plain scores of a dense request (`fillDensePool`). */
  readonly #plainPool = new TopK(RERANK_POOL_MIN);
  #candidates = new Int32Array(RERANK_POOL_MIN);
  #boosts = new Float64Array(RERANK_POOL_MIN);
  readonly #reranker: Reranker;
  #typos: TypoMatcher | undefined;
  /** The encoder and example requests in this catalog's answers (catalogs of `MIN_TOOLS_TO_ABSTAIN` or more). */
  readonly #learned: LearnedRanking | undefined;
  /** The typo matcher, built on first use, for the confidence (one function, not one per query). */
  readonly #nearMisses = (): TypoMatcher => this.typos;
  /** For the confidence: whether a picked tool has a query term (the re-ranker's table, no search). */
  readonly #contributes = (term: number, hit: number): boolean => this.#reranker.contributes(term, hit);

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
    this.#sums = new Float64Array(documents.length * 2);
    this.#touched = new Int32Array(documents.length);
    const sources = groupBySource(documents);
    this.#sourceOf = sources.sourceOf;
    this.#sourceStarts = sources.starts;
    this.#sourceDocs = sources.docs;
    this.#sourceBest = new Float64Array(sources.count);
    this.#displayNames = documents.map((doc) => doc.name);
    this.#context = new ContextCheck(this.index, documents);
    // The word vectors load once per process; an engine that may run the check loads them now,
    // so the first doubtful answer does not pay for it.
    if (ranking.abstain && this.size >= MIN_TOOLS_TO_ABSTAIN && CONFIDENCE_MODEL.context !== undefined)
      loadTermVectors();
    this.#reranker = new Reranker(this.index, ranking.nameBonus, ranking.diversity);
    this.#learned =
      this.size >= MIN_TOOLS_TO_ABSTAIN ? LearnedRanking.of(this.index, this.#displayNames, ranking) : undefined;
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
    // The ranking options name the query-term switches as `buildQueryTerms` does.
    return buildQueryTerms(this.index, query, () => this.typos, this.ranking);
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
    const named = this.#exact.get(lower);
    let seen = NONE_SEEN;
    if (named !== undefined) {
      const taken = new Set<number>();
      for (const id of named) {
        if (hits.length >= limit) break;
        hits.push({ index: id, name: this.#displayNames[id] ?? '', score: Number.POSITIVE_INFINITY, reason: 'exact' });
        taken.add(id);
      }
      seen = taken;
    }
    if (hits.length >= limit) return { hits, confidence: 1, nearest: [] };

    const terms = this.queryTerms(text);
    if (terms.ids.length === 0) return fallbackAnswer(this.index, hits, lower, limit);
    // Only added terms (typo corrections, expansions, renderings) and no word of the request's
    // own: a tool name containing the text is the surer answer when there is one ("hub").
    if (
      hits.length === 0 &&
      !terms.origins.some((origin) => origin === 'query' || origin === 'translation' || origin === 'implied')
    ) {
      const named = substringHits(this.index, lower, limit);
      if (named.length > 0) return { hits: named, confidence: SUBSTRING_CONFIDENCE, nearest: [] };
    }
    const exact = hits.length;
    // Judged on at least JUDGED_TOOLS tools; rankings at smaller limits are prefixes of these (the
    // pool is the same), so cutting back to the limit changes no answer.
    const judged = Math.max(limit, JUDGED_TOOLS);
    // With learned parts, enough of the lexical ranking for their merges (a prefix of the same ranking).
    const wanted = this.#learned === undefined ? judged : Math.max(judged, ENCODER.lexical);
    const picked = this.rank(terms, judged, wanted - hits.length, seen);
    const { ids, scores } = this.#reranker;
    for (let at = 0; at < picked; at += 1) {
      const id = ids[at] as number;
      hits.push({ index: id, name: this.#displayNames[id] ?? '', score: scores[at] as number, reason: 'bm25' });
    }
    const shown = hits.length > limit ? hits.slice(0, limit) : hits;
    if (exact > 0) return { hits: shown, confidence: 1, nearest: [] };
    // Confidence and the context check read the first JUDGED_TOOLS tools whatever the limit: a
    // request is withheld or answered alike at limits 5 and 10 (BENCHMARKS.md, issue 21).
    const judgedHits = hits.length > JUDGED_TOOLS ? hits.slice(0, JUDGED_TOOLS) : hits;
    const confidence = confidenceOf(
      confidenceFeatures(this.index, terms, judgedHits, this.#nearMisses, this.#contributes),
    );
    if (!this.ranking.abstain || this.size < MIN_TOOLS_TO_ABSTAIN)
      return givenAnswer(this.#learned, text, hits, shown, limit, confidence);
    if (confidence < CONFIDENCE_MODEL.abstainBelow)
      return withheldAnswer(this.#learned, text, hits, shown, limit, confidence);
    const gate = CONFIDENCE_MODEL.context;
    if (gate === undefined || confidence >= gate.below || hits.length === 0)
      return givenAnswer(this.#learned, text, hits, shown, limit, confidence);
    const contextSupport = this.#context.support(terms, judgedHits);
    return contextSupport < gate.support
      ? withheldAnswer(this.#learned, text, hits, shown, limit, confidence, contextSupport)
      : givenAnswer(this.#learned, text, hits, shown, limit, confidence, contextSupport);
  }

  /** Has the request encoder encode this catalog's tools in the background (`ToolEncodings`). */
  prepareEncoder(): void {
    this.#learned?.encoder?.prepare();
  }

  /** Requests the request encoder scanned this catalog for so far (a caller's cost measure). */
  get encoderScans(): number {
    return this.#learned?.encoder?.scans ?? 0;
  }

  /** The encoder and the example requests in this engine's answers (for explanations). */
  get learned(): LearnedRanking | undefined {
    return this.#learned;
  }

  /**
   * The context check's support for `hits` (`context-check.ts`): how well the rest of the request
   * fits the subject of the best-supported of them. `answer` runs it only under the model's
   * `context.below`, so a confident answer never pays for it.
   */
  contextSupportOf(terms: QueryTerms, hits: readonly SearchHit[]): number {
    return this.#context.support(terms, hits);
  }

  /**
   * BM25F over the query terms, the coverage floor and the source boost, then the re-ranking: the
   * best `wanted` tools not in `seen`, left in the re-ranker's `ids` / `scores` (the count is
   * returned). Kept apart from `search`, whose result array changes shape as it fills: as one
   * function, V8 threw the hot path's optimised code away on nearly every call (`--trace-deopt`).
   */
  private rank(terms: QueryTerms, limit: number, wanted: number, seen: ReadonlySet<number>): number {
    const { ids: termIds, weights: termWeights, mass: queryMass } = terms;

    const sums = this.#sums;
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
          const at = (docs[i] as number) << 1;
          sums[at] = (sums[at] as number) + weight * (contributions[i] as number);
          sums[at + 1] = (sums[at + 1] as number) + idf;
        }
      } else {
        for (let i = from; i < to; i += 1) {
          const doc = docs[i] as number;
          const at = doc << 1;
          if (sums[at + 1] === 0) touched[touchedCount++] = doc;
          sums[at] = (sums[at] as number) + weight * (contributions[i] as number);
          sums[at + 1] = (sums[at + 1] as number) + idf;
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
    if (dense) this.fillDensePool(floor, seen);
    else {
      const skipSeen = seen.size > 0;
      const capacity = pool.capacity;
      let floorScore = -1; // once the pool is full: the score an offer must reach (ties go to lower ids)
      for (let i = 0; i < touchedCount; i += 1) {
        const doc = touched[i] as number;
        const source = sourceOf[doc] as number;
        const score = sums[doc << 1] as number;
        if (score > (sourceBest[source] as number)) sourceBest[source] = score;
      }
      for (let i = 0; i < touchedCount; i += 1) {
        const doc = touched[i] as number;
        const total = (sums[doc << 1] as number) + boost * (sourceBest[sourceOf[doc] as number] as number);
        if (total >= floorScore && (sums[(doc << 1) + 1] as number) >= floor && !(skipSeen && seen.has(doc))) {
          pool.offer(doc, total);
          if (pool.size === capacity) floorScore = pool.worstScore;
        }
      }
    }
    if (this.#candidates.length < pool.size) {
      this.#candidates = new Int32Array(pool.capacity);
      this.#boosts = new Float64Array(pool.capacity);
    }
    const candidates = this.#candidates;
    const boosts = this.#boosts;
    const count = pool.sortedInto(candidates);
    for (let c = 0; c < count; c += 1)
      boosts[c] = boost * (sourceBest[sourceOf[candidates[c] as number] as number] as number);
    if (dense) {
      sums.fill(0);
      sourceBest.fill(0);
    } else {
      for (let i = 0; i < touchedCount; i += 1) {
        const doc = touched[i] as number;
        sums[doc << 1] = 0;
        sums[(doc << 1) + 1] = 0;
        sourceBest[sourceOf[doc] as number] = 0;
      }
    }
    return this.#reranker.rerank(candidates, count, boosts, termIds, termWeights, wanted);
  }

  /**
   * The candidate pool of a request that touched most of the catalog. Every document's source
   * boost needs its source's best score, and finding every source's best meant an unpredictable
   * comparison per document (a third of a long request's cost). Instead: first the pool's size in
   * best plain scores among eligible documents (a comparison that soon fails predictably); its
   * worst, `gate`, bounds what can reach the pool, since a document totals at least its score
   * times (1 + boost) and at most its source's best times the same. So only sources with a
   * document near `gate` are scored with their boost and offered, which ranks exactly as offering
   * every document (`gate` is lowered by far more than any rounding, so no tie is lost).
   */
  private fillDensePool(floor: number, seen: ReadonlySet<number>): void {
    const sums = this.#sums;
    const sourceOf = this.#sourceOf;
    const sourceBest = this.#sourceBest;
    const boost = this.ranking.sourceBoost;
    const pool = this.#pool;
    const capacity = pool.capacity;
    const skipSeen = seen.size > 0;
    const documentCount = sourceOf.length;
    const plain = this.#plainPool;
    plain.reset(capacity);
    // Documents that may lie near the final gate are noted on the way (`touched` is free in a dense
    // request): the gate only rises, so one noted at `gate × margin` at its time covers the end.
    const noted = this.#touched;
    const margin = boost >= 0 ? GATE_MARGIN : 0;
    let notedCount = 0;
    let gate = Number.MIN_VALUE; // every touched document's score is positive
    let mark = Number.MIN_VALUE;
    for (let doc = 0; doc < documentCount; doc += 1) {
      const score = sums[doc << 1] as number;
      if (score < mark) continue;
      noted[notedCount++] = doc;
      if (score >= gate && (sums[(doc << 1) + 1] as number) >= floor && !(skipSeen && seen.has(doc))) {
        plain.offer(doc, score);
        if (plain.size === capacity) {
          gate = plain.worstScore;
          mark = Math.max(Number.MIN_VALUE, gate * margin);
        }
      }
    }
    gate = plain.size === capacity ? mark : Number.MIN_VALUE;
    const order = this.#sourceDocs;
    const starts = this.#sourceStarts;
    let floorScore = -1; // once the pool is full: the score an offer must reach (ties go to lower ids)
    for (let at = 0; at < notedCount; at += 1) {
      const doc = noted[at] as number;
      const source = sourceOf[doc] as number;
      if ((sums[doc << 1] as number) < gate || (sourceBest[source] as number) > 0) continue;
      const to = starts[source + 1] as number;
      let best = 0;
      for (let k = starts[source] as number; k < to; k += 1)
        best = Math.max(best, sums[(order[k] as number) << 1] as number);
      sourceBest[source] = best;
      const extra = boost * best;
      if (best + extra < floorScore) continue;
      for (let k = starts[source] as number; k < to; k += 1) {
        const doc = order[k] as number;
        const score = sums[doc << 1] as number;
        if (score === 0) continue;
        const total = score + extra;
        if (total >= floorScore && (sums[(doc << 1) + 1] as number) >= floor && !(skipSeen && seen.has(doc))) {
          pool.offer(doc, total);
          if (pool.size === capacity) floorScore = pool.worstScore;
        }
      }
    }
  }
}
