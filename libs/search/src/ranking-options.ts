import { DEFAULT_INDEX_OPTIONS, type IndexOptions } from './bm25-index';

/** Ranking knobs; the defaults are what `toolsearch eval` measured best (see BENCHMARKS.md). */
export interface RankingOptions {
  /**
   * A tool is returned only when the query terms it matches carry at least this share of the
   * query's IDF mass (terms no tool contains count at the highest IDF). Keeps nonsense out.
   */
  readonly minCoverage: number;
  /** Reward for tools whose name words appear in the query: score × (1 + bonus × share of name words). */
  readonly nameBonus: number;
  /**
   * Share of the best score within the same source that every matching tool of that source gets on
   * top of its own: requests often need several tools of one service, and the service that matches
   * best is the likeliest home of the others.
   */
  readonly sourceBoost: number;
  /**
   * Diversity for requests that need several tools: after each pick, the query terms that tool
   * matched count this much less for the next pick (1 = plain ranking). A request for "a word
   * cloud in a PDF report" then returns the chart tool and the PDF tool, not five chart tools.
   */
  readonly diversity: number;
  /** Withhold answers whose confidence is under the model's threshold (nothing fits). */
  readonly abstain: boolean;
  /** Learned query expansion (`term-associations.ts`) on or off. */
  readonly expand: boolean;
  /** Learned term necessity weights of request words on or off. */
  readonly weighTerms: boolean;
  /** Multiplier of the learned association weights (1: as learned). */
  readonly expansionScale: number;
  /** Learned related words of every request word (`LearnedTerm.related`) on or off (with `expand`). */
  readonly relate: boolean;
  /** Multiplier of the related words' weights (1: as learned). */
  readonly relatedScale: number;
  /** Typo correction of query words no tool contains (`typo-matcher.ts`) on or off. */
  readonly correctTypos: boolean;
  /** Japanese and Chinese requests read for the English words they say (`cross-lingual.ts`). */
  readonly translate: boolean;
  /** Parameter words implied by values a request carries (an e-mail address → `email`; `implied-terms.ts`). */
  readonly hintValues: boolean;
  /**
   * Doubtful answers merged with the request encoder's nearest tools (`request-encoder.ts`), in
   * catalogs of 100 tools or more.
   */
  readonly encode: boolean;
  /**
   * Answers fused with the votes of the example requests written for the catalog's tools
   * (`example-requests.ts`), in catalogs of 100 tools or more.
   */
  readonly examples: boolean;
  /** Field weights and BM25 saturation of the index. */
  readonly index: IndexOptions;
}

export const DEFAULT_RANKING: RankingOptions = {
  minCoverage: 0.05,
  nameBonus: 1,
  sourceBoost: 0.6,
  diversity: 0.8,
  abstain: true,
  expand: true,
  weighTerms: true,
  expansionScale: 1,
  relate: true,
  relatedScale: 1,
  correctTypos: true,
  translate: true,
  hintValues: true,
  encode: true,
  examples: true,
  index: DEFAULT_INDEX_OPTIONS,
};
