/** A logistic model over the features: weights in `CONFIDENCE_FEATURES` order (a missing one is 0), then the bias. */
export interface ConfidenceModel {
  readonly weights: readonly number[];
  readonly bias: number;
  /** Answers below this confidence are withheld (nothing fits). */
  readonly abstainBelow: number;
  /**
   * The context check (`term-vectors.ts`): an answer under `below` is also withheld when the
   * request's words its tools do not match support none of them (`contextSupport` < `support`).
   * Absent: no context check.
   */
  readonly context?: { readonly below: number; readonly support: number };
}
