/** A logistic model over the features: weights in `ConfidenceFeatures` order, then the bias. */
export interface ConfidenceModel {
  readonly weights: readonly [number, number, number, number];
  readonly bias: number;
  /** Answers below this confidence are withheld (nothing fits). */
  readonly abstainBelow: number;
}
