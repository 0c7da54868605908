import { wordTerms } from './analyzer';
import type { Bm25Index } from './bm25-index';
import { CONFIDENCE_MODEL } from './generated/confidence-model';
import type { QueryTerms } from './query-terms';

/**
 * What the confidence of an answer is computed from, all in 0…1. Deliberately nothing about the
 * request's length: in the public tuning data answerable requests are long and unanswerable ones
 * short, and a length feature learned exactly that (short keyword queries would be withheld).
 * `firstTerms` and `bestTerms` count matched words but relative to the request's own count, up to
 * a small cap, so a one-word request its tool matches reads 1.
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
  /**
   * How many of the request's own words the first tool matches (each at its learned weight, so
   * "my" or "please" count little), up to `ENOUGH_TERMS`, over as many as the request has
   * (unknown words included), up to the same. A lookalike typically matches one incidental word
   * of a request (the "floor" of "replace the broken tile on my bathroom floor", the "faucet" of
   * a leaking one); a tool that serves it matches the action and the object. Shares of IDF mass
   * miss this: one rare word can carry most of a request's mass.
   */
  readonly firstTerms: number;
  /**
   * The same for the returned tool that matches the most words: a multi-step request ("fetch the
   * news, chart it, save a PDF") is served by several tools, none of them first on every word.
   */
  readonly bestTerms: number;
}

export type { ConfidenceModel } from './confidence-types';
import type { ConfidenceModel } from './confidence-types';

/** A plain lowercase word: 3 to 24 letters a–z (`/^[a-z]{3,24}$/` without a pattern per word). */
function isLowerWord(word: string): boolean {
  if (word.length < 3 || word.length > 24) return false;
  for (let at = 0; at < word.length; at += 1) {
    const code = word.charCodeAt(at);
    if (code < 97 || code > 122) return false;
  }
  return true;
}
/** Words looked at for `unknownWords`: the first ones of a long request say what it is about. */
const MAX_WORDS = 64;
/** Unknown words looked at as possible slips (the query terms count no more unknown words). */
const MAX_UNKNOWN_TERMS = 3;
/**
 * `firstTerms` / `bestTerms` count matched words up to this many: two (an action and its object)
 * separated the tuning parts better than three or four (BENCHMARKS.md, issue 21).
 */
const ENOUGH_TERMS = 2;
/**
 * Returned tools looked at per answer: the first five, as in the fit, so an answer's confidence
 * does not change with the limit asked for (ten tools cover more of any request than five).
 */
const MAX_HITS = 5;
/** Matched weight per returned tool: one scratch array for the process, no allocation per query. */
const MATCHED = new Float64Array(MAX_HITS);

/** Tells a mistyped word from one the catalog lacks (`TypoMatcher.isNearMiss`). */
export interface NearMisses {
  isNearMiss(term: string): boolean;
}

function correctedByQueryTerms(terms: QueryTerms, stem: string): boolean {
  for (let at = 0; at < terms.sources.length; at += 1)
    if (terms.origins[at] === 'typo' && terms.sources[at] === stem) return true;
  return false;
}

/**
 * The request's plain lowercase words: how many, how many no tool has, and how many of those look
 * like slips of a catalog word ("updte", "emals"; at most `MAX_UNKNOWN_TERMS` looked at). Reads the
 * words and term ids the query terms already found rather than splitting the request again.
 */
function plainWords(index: Bm25Index, terms: QueryTerms, near: (() => NearMisses) | undefined) {
  let plain = 0;
  let missing = 0;
  let slips = 0;
  const known = (stem: string): boolean => {
    const id = terms.analysed.get(stem);
    return id === undefined ? index.termId(stem) !== undefined : id >= 0;
  };
  const count = Math.min(terms.words.length, MAX_WORDS);
  for (let at = 0; at < count; at += 1) {
    const word = terms.words[at] as string;
    if (!isLowerWord(word)) continue;
    const stems = wordTerms(word, true);
    if (stems.length === 0) continue; // a stop word
    plain += 1;
    if (stems.some(known)) continue;
    missing += 1;
    const stem = stems[0] as string;
    if (near === undefined || slips >= MAX_UNKNOWN_TERMS || stems.length !== 1) continue;
    // A word the query terms already corrected is not in the unknown mass.
    if (!correctedByQueryTerms(terms, stem) && near().isNearMiss(stem)) slips += 1;
  }
  return { plain, missing, slips };
}

/**
 * The features of one answer: how much of what the request says the returned tools cover. Cost:
 * one binary search per (own term, returned tool), with both bounded (`MAX_QUERY_TERMS`, the limit),
 * unless `matches` answers whether the returned tool at `hit` has the query term at `term` (the
 * engine's re-ranker already knows it for the tools it picked).
 */
export function confidenceFeatures(
  index: Bm25Index,
  terms: QueryTerms,
  hits: readonly { index: number }[],
  near?: () => NearMisses,
  matches?: (term: number, hit: number) => boolean,
): ConfidenceFeatures {
  // A slip of a catalog word is neither a capability the catalog lacks nor one it has: it is left
  // out of the request's words and unknown mass alike (typo-names bench: BENCHMARKS.md).
  const { plain, missing, slips } = plainWords(index, terms, terms.unknownMass > 0 ? near : undefined);
  const slipMass = Math.min(slips * index.maxIdf, terms.unknownMass);
  const unknownMass = terms.unknownMass - slipMass;
  const shown = Math.min(hits.length, MAX_HITS);
  MATCHED.fill(0, 0, shown);
  let covered = 0;
  let first = 0;
  // Unknown words count as words of the request (each adds `maxIdf` to the unknown mass).
  let words = index.maxIdf > 0 ? Math.round(unknownMass / index.maxIdf) : 0;
  for (let at = 0; at < terms.ids.length; at += 1) {
    const origin = terms.origins[at];
    if (origin !== 'query' && origin !== 'translation' && origin !== 'implied' && origin !== 'typo') continue;
    const id = terms.ids[at] as number;
    const weight = terms.weights[at] as number;
    const mass = weight * index.idf(id);
    words += weight;
    let found = false;
    for (let hit = 0; hit < shown; hit += 1) {
      if (
        matches === undefined ? index.contribution(id, (hits[hit] as { index: number }).index) <= 0 : !matches(at, hit)
      )
        continue;
      found = true;
      MATCHED[hit] = (MATCHED[hit] as number) + weight;
      if (hit === 0) first += mass;
    }
    if (found) covered += mass;
  }
  let best = 0;
  for (let hit = 0; hit < shown; hit += 1) best = Math.max(best, MATCHED[hit] as number);
  const enough = Math.min(words, ENOUGH_TERMS);
  const total = terms.mass - slipMass > 0 ? terms.mass - slipMass : 1;
  return {
    covered: covered / total,
    coveredByFirst: first / total,
    unknown: unknownMass / total,
    unknownWords: plain - slips > 0 ? (missing - slips) / (plain - slips) : 0,
    firstTerms: enough > 0 ? Math.min(MATCHED[0] ?? 0, ENOUGH_TERMS) / enough : 0,
    bestTerms: enough > 0 ? Math.min(best, ENOUGH_TERMS) / enough : 0,
  };
}

/** The features in the order of `ConfidenceModel.weights`. */
export const CONFIDENCE_FEATURES = [
  'covered',
  'coveredByFirst',
  'unknown',
  'unknownWords',
  'firstTerms',
  'bestTerms',
] as const satisfies readonly (keyof ConfidenceFeatures)[];

/** The calibrated probability that the answer holds a right tool (logistic fit on the tuning parts). */
export function confidenceOf(features: ConfidenceFeatures, model: ConfidenceModel = CONFIDENCE_MODEL): number {
  let z = model.bias;
  for (let at = 0; at < CONFIDENCE_FEATURES.length; at += 1)
    z += (model.weights[at] ?? 0) * features[CONFIDENCE_FEATURES[at] as keyof ConfidenceFeatures];
  return 1 / (1 + Math.exp(-z));
}
