/**
 * An answer is judged (confidence, context check, the examples' gate and rescue) on at least this
 * many tools whatever the limit: the model and the gates were fitted on five, and a request must
 * not be withheld at limit 1 that is answered at limit 5.
 */
export const JUDGED_TOOLS = 5;

/** Why a tool was returned. */
export type MatchReason = 'exact' | 'bm25' | 'substring' | 'rule' | 'encoder' | 'examples';

/** One query's answer: the hits, how sure search is of them, and what it withheld. */
export interface SearchAnswer {
  readonly hits: SearchHit[];
  /** Calibrated probability (0…1) that the hits hold a right tool; 1 for an exact name. */
  readonly confidence: number;
  /** When search abstained: the tools it would have returned (for "no good match" and its sources). */
  readonly nearest: SearchHit[];
  /**
   * The context check's support (`context-check.ts`), when the confidence was low enough to run it:
   * how well the request's other words fit the best of the tools' subjects (−1…1).
   */
  readonly contextSupport?: number;
  /** The hits are the lexical ranking merged with the request encoder's nearest tools (`request-encoder.ts`). */
  readonly encoded?: true;
  /**
   * The hits are the lexical ranking with the tools the request encoder was trained for re-ordered
   * by it among their places (a confident answer; `encoder-merge.ts`).
   */
  readonly reordered?: true;
  /**
   * The hits fuse the ranking with the tools whose example requests the request resembles
   * (`example-requests.ts`).
   */
  readonly voted?: true;
  /**
   * When the example requests judged a doubtful answer: the best score of the catalog's examples
   * against the request — withheld under `EXAMPLES.abstain.score` (or under its `wide` score with
   * a small `exampleShare`), or (`rescued`) given at `EXAMPLES.rescue.score` or more.
   */
  readonly exampleScore?: number;
  /** With `exampleScore`: how much of the request that best example says (`ExampleVote.share`, 0…1). */
  readonly exampleShare?: number;
  /**
   * Withheld because nothing fits (`EXAMPLES.nothing`): the score of the example of a request no
   * tool serves that read closer to the request than every example of the answer's tools.
   */
  readonly nothingScore?: number;
  /**
   * The lexical confidence or the context check would have withheld the answer; an example request
   * close enough to the request gave it after all (`EXAMPLES.rescue`).
   */
  readonly rescued?: true;
  /** With `encoded`, `reordered` or `voted`: the lexical hits the confidence judged, before the learned parts. */
  readonly lexical?: SearchHit[];
}

/** Confidence of a name-substring fallback: a name contains the text, nothing more is known. */
export const SUBSTRING_CONFIDENCE = 0.5;

export interface SearchHit {
  /** Position of the tool in the catalog the engine was built from. */
  readonly index: number;
  readonly name: string;
  readonly score: number;
  readonly reason: MatchReason;
}
