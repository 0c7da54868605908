import { wordTerms, words } from './analyzer';
import type { Bm25Index } from './bm25-index';
import { CONFIDENCE_MODEL } from './generated/confidence-model';
import { MAX_QUERY_CHARS, type QueryTerms } from './query-terms';

/**
 * What the confidence of an answer is computed from, all shares in 0…1. Deliberately nothing about
 * the request's length: in the tuning data answerable requests are long and unanswerable ones
 * short, and a length feature learned exactly that (short keyword queries would be withheld).
 */
export interface ConfidenceFeatures {
  /** Share of the request's own IDF mass that the returned tools together match. */
  readonly covered: number;
  /** Share of it that the first tool alone matches. */
  readonly coveredByFirst: number;
  /** Share of it from words no tool contains. */
  readonly unknown: number;
  /**
   * Share of the request's lowercase words that no tool contains. A name ("Messi", "Lisbon") is
   * often missing from every tool of a catalog that serves the request; a plain word missing
   * ("laundry", "lawn") more often means the capability is.
   */
  readonly unknownWords: number;
}

export type { ConfidenceModel } from './confidence-types';
import type { ConfidenceModel } from './confidence-types';

const OWN = new Set(['query', 'implied', 'typo']);
const LOWER_WORD = /^[a-z]{3,24}$/;
/** Words looked at for `unknownWords`: the first ones of a long request say what it is about. */
const MAX_WORDS = 64;

function unknownWordShare(index: Bm25Index, query: string): number {
  let plain = 0;
  let missing = 0;
  for (const word of words(query.slice(0, MAX_QUERY_CHARS)).slice(0, MAX_WORDS)) {
    if (!LOWER_WORD.test(word)) continue;
    const terms = wordTerms(word, true);
    if (terms.length === 0) continue; // a stop word
    plain += 1;
    if (terms.every((term) => index.termId(term) === undefined)) missing += 1;
  }
  return plain > 0 ? missing / plain : 0;
}

/**
 * The features of one answer: how much of what the request says the returned tools cover. Cost:
 * one binary search per (own term, returned tool), with both bounded (`MAX_QUERY_TERMS`, the limit).
 */
export function confidenceFeatures(
  index: Bm25Index,
  terms: QueryTerms,
  hits: readonly { index: number }[],
  query: string,
): ConfidenceFeatures {
  let covered = 0;
  let first = 0;
  for (let at = 0; at < terms.ids.length; at += 1) {
    if (!OWN.has(terms.origins[at] as string)) continue;
    const id = terms.ids[at] as number;
    const mass = (terms.weights[at] as number) * index.idf(id);
    const top = hits[0];
    if (top !== undefined && index.contribution(id, top.index) > 0) first += mass;
    if (hits.some((hit) => index.contribution(id, hit.index) > 0)) covered += mass;
  }
  const total = terms.mass > 0 ? terms.mass : 1;
  return {
    covered: covered / total,
    coveredByFirst: first / total,
    unknown: terms.unknownMass / total,
    unknownWords: unknownWordShare(index, query),
  };
}

/** The calibrated probability that the answer holds a right tool (logistic fit on the tuning parts). */
export function confidenceOf(features: ConfidenceFeatures, model: ConfidenceModel = CONFIDENCE_MODEL): number {
  const [a, b, c, d] = model.weights;
  const z =
    a * features.covered + b * features.coveredByFirst + c * features.unknown + d * features.unknownWords + model.bias;
  return 1 / (1 + Math.exp(-z));
}
