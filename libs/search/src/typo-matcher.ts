import { distance } from 'fastest-levenshtein';
import { ENGLISH_WORDS_TEXT } from './generated/english-words';
import { KNOWN_WORDS_TEXT } from './generated/known-words';

let knownWords: ReadonlySet<string> | undefined;

/**
 * Real words are not typos: a word of any public catalog or tuning request ("three", "paint",
 * "thread") or a common English word ("mango", "refill": `scripts/english-words.ts`) is left alone
 * even when this catalog lacks it and a catalog term is one edit away.
 */
export function isKnownWord(term: string): boolean {
  knownWords ??= new Set([...KNOWN_WORDS_TEXT.split(' '), ...ENGLISH_WORDS_TEXT.split(' ')]);
  return knownWords.has(term);
}

/** A catalog term a mistyped query term was matched to. */
export interface TypoMatch {
  readonly term: string;
  readonly id: number;
  readonly distance: number;
}

/** Bounds of typo matching: cost per query stays small whatever the query. */
export const TYPO_LIMITS = {
  /** Shorter terms are not corrected (too many neighbours: "cat" is one edit from "car"). */
  minLength: 5,
  /** From this length on, two edits are allowed; below it, one. */
  twoEditsFrom: 9,
  /** Longer terms are not corrected (pasted blobs, hashes). */
  maxLength: 24,
  /** At most this many unknown terms of one query are looked at. */
  maxTermsPerQuery: 3,
  /** A catalog term must occur in at least this many tools to be a correction. */
  minDocumentFrequency: 2,
} as const;

const LETTERS = /^[a-z]+$/;

/**
 * Finds the catalog term a query term with no postings was probably meant to be: within one edit
 * (two for long words) by Levenshtein distance, the closest, then the most frequent. Candidates are
 * bucketed by first letter and length, so one lookup compares against a few hundred terms at most
 * (the first letter of a typo is rarely the wrong one; such typos are not corrected).
 */
export class TypoMatcher {
  readonly #buckets = new Map<string, { term: string; id: number; df: number }[]>();

  constructor(terms: Iterable<[string, number]>, documentFrequency: (id: number) => number) {
    for (const [term, id] of terms) {
      if (term.length < TYPO_LIMITS.minLength - 1 || term.length > TYPO_LIMITS.maxLength + 2) continue;
      if (!LETTERS.test(term)) continue;
      const df = documentFrequency(id);
      if (df < TYPO_LIMITS.minDocumentFrequency) continue;
      const key = `${term[0]}${term.length}`;
      const bucket = this.#buckets.get(key);
      if (bucket === undefined) this.#buckets.set(key, [{ term, id, df }]);
      else bucket.push({ term, id, df });
    }
  }

  /**
   * Whether `term` (a stem no tool has) looks like a slip of one the catalog has: one edit from a
   * catalog term with the same first letter, from four letters on, and not a word of any public
   * catalog or request. Looser than `match` (which must pick one correction); used only to keep a
   * mistyped word from counting as a capability the catalog lacks.
   */
  isNearMiss(term: string): boolean {
    if (term.length < TYPO_LIMITS.minLength - 1 || term.length > TYPO_LIMITS.maxLength || !LETTERS.test(term))
      return false;
    if (isKnownWord(term)) return false;
    for (let length = term.length - 1; length <= term.length + 1; length += 1)
      for (const candidate of this.#buckets.get(`${term[0]}${length}`) ?? [])
        if (distance(term, candidate.term) <= 1) return true;
    return false;
  }

  /** The best correction of `term`, or undefined (too short, too long, not letters, nothing near). */
  match(term: string): TypoMatch | undefined {
    if (term.length < TYPO_LIMITS.minLength || term.length > TYPO_LIMITS.maxLength || !LETTERS.test(term))
      return undefined;
    if (isKnownWord(term)) return undefined;
    const allowed = term.length >= TYPO_LIMITS.twoEditsFrom ? 2 : 1;
    let best: { term: string; id: number; df: number } | undefined;
    let bestDistance = allowed + 1;
    for (let length = term.length - allowed; length <= term.length + allowed; length += 1) {
      for (const candidate of this.#buckets.get(`${term[0]}${length}`) ?? []) {
        const d = distance(term, candidate.term);
        if (d < bestDistance || (d === bestDistance && best !== undefined && candidate.df > best.df)) {
          best = candidate;
          bestDistance = d;
        }
      }
    }
    return best === undefined || bestDistance > allowed ? undefined : { ...best, distance: bestDistance };
  }
}
