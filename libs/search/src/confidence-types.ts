/** A logistic model over the features: weights in `CONFIDENCE_FEATURES` order (a missing one is 0), then the bias. */
export interface ConfidenceModel {
  readonly weights: readonly number[];
  readonly bias: number;
  /** Answers below this confidence are withheld (nothing fits). */
  readonly abstainBelow: number;
}
