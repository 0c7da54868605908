/** One learned association: a tool-side term and its expansion weight (0–1). */
export interface Association {
  term: string;
  weight: number;
}

/** The thresholds of the learning script, fitted on the tuning parts only. */
export const PARAMS = {
  maxPerTerm: 4,
  request: {
    /** A request word must occur in at least this many tuning requests. */
    minQueries: 3,
    /** …and the tool word in the gold tools of at least this many of them. */
    minPairs: 3,
    /** Share of the word's requests whose gold tools have the tool word. */
    minShare: 0.4,
    /** Tool words in more than this share of all tool texts are too common to help. */
    maxToolShare: 0.02,
    minLift: 20,
    /** Distinct gold servers the pair must be seen with. */
    minServers: 3,
    weight: 0.5,
  },
  necessity: {
    minQueries: 3,
    /** Pseudo-count pulling a word's necessity towards the mean. */
    smoothing: 4,
    /** Weight of a word whose gold tools never contain it. */
    floor: 0.3,
    /** Necessity at which a word keeps its full weight. */
    fullAt: 0.7,
  },
  /** Related words from the synthetic request / tool pairs (`related-words.ts`). */
  related: {
    minQueries: 3,
    minPairs: 2,
    minShare: 0.4,
    maxToolShare: 0.05,
    minLift: 10,
    minServers: 1,
    /** Two different tools: copies of one tool under several server names count once. */
    minNames: 2,
    /** A tool word related to more request words than this is tool-text filler ("default", "given"). */
    maxSources: 80,
    weight: 0.6,
    perTerm: 4,
  },
  cooccurrence: {
    maxTermsPerDoc: 40,
    minDocs: 5,
    maxDocShare: 0.02,
    minPairDocs: 5,
    minNpmi: 0.55,
    perTerm: 2,
    weight: 0.3,
  },
} as const;
