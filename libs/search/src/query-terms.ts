import { analyze, isValueWord, stem, words, wordTerms } from './analyzer';
import type { Bm25Index } from './bm25-index';
import { translateCjk } from './cross-lingual';
import { glossaryTerms } from './glossary';
import { impliedQueryTerms, valueHints } from './implied-terms';
import { learnedTerm } from './term-associations';
import type { TypoMatcher } from './typo-matcher';

/**
 * Where a query term came from: the request's own words (`translation`: an English word a Japanese
 * or Chinese request says, also its own), or something added for it (`synonym`: a translated
 * rendering's further English words).
 */
export type TermOrigin =
  | 'query'
  | 'translation'
  | 'synonym'
  | 'implied'
  | 'value'
  | 'typo'
  | 'glossary'
  | 'association'
  | 'related';

/** A query as the index sees it: parallel arrays of term ids, weights and the terms themselves. */
export interface QueryTerms {
  readonly ids: number[];
  readonly weights: number[];
  readonly terms: string[];
  /** Why each term is there. */
  readonly origins: TermOrigin[];
  /** For added terms, the request's term they stand for (the term itself for its own words). */
  readonly sources: string[];
  /** IDF mass of the query's own words (unknown ones included, up to a cap). */
  readonly mass: number;
  /** The part of `mass` from words no tool contains. */
  readonly unknownMass: number;
  /** The raw words of the request (`words()` of the analysed text): the confidence reads them again. */
  readonly words: readonly string[];
  /**
   * The request's own distinct terms (the first `MAX_QUERY_TERMS` analysed, without the CJK
   * bigrams a translated rendering stands for, then the English words a Japanese or Chinese request
   * translates to), each with its index term id, or -1 when no tool has it: looked up once per
   * request.
   */
  readonly analysed: ReadonlyMap<string, number>;
}

/** Bounds and weights of what is added to a request (measured on the tuning parts; BENCHMARKS.md). */
export const EXPANSION = {
  /** Weight of a query word's glossary renderings relative to the word itself. */
  glossaryWeight: 0.5,
  /** Weight of a translated word's further English synonyms (削除: delete, then remove). */
  synonymWeight: 0.5,
  /** Weight of a parameter word a value in the request implies (`implied-terms.ts`). */
  valueHintWeight: 0.5,
  /** Weight of a typo's correction relative to a word spelled right. */
  typoWeight: 0.7,
  /** At most this many learned expansions per query, the strongest kept. */
  maxAssociations: 8,
  /**
   * Only words the catalog lacks or has in at most this many tools are expanded: a word many
   * tools share already finds its tools, and expanding it measurably pulled in lookalikes.
   */
  weakDocumentFrequency: 3,
  /** Requests with more terms than this are not expanded: they already say enough. */
  maxTermsToExpand: 32,
  /** At most this many learned related words (`LearnedTerm.related`) per query, the strongest kept. */
  maxRelated: 6,
} as const;

/** Unknown query words beyond this many do not lower a tool's coverage further. */
const MAX_UNKNOWN_TERMS = 3;

/** Query terms beyond this many are ignored (a bounded cost for pasted text). */
export const MAX_QUERY_TERMS = 256;

/** Characters of a query that are analysed; the bridge cuts queries shorter still. */
export const MAX_QUERY_CHARS = 8192;

/**
 * The weighted index terms of a query and its IDF mass (what coverage is measured against): the
 * analysed words (weight 1), the terms the request implies (a file path needs a file tool),
 * corrections of mistyped words, and — at lower weight and outside the mass, since they say again
 * what the request already says — the glossary's Chinese renderings and the learned associations.
 */
export function buildQueryTerms(
  index: Bm25Index,
  query: string,
  typos: () => TypoMatcher,
  options: {
    expand?: boolean;
    expansionScale?: number;
    relate?: boolean;
    relatedScale?: number;
    correctTypos?: boolean;
    weighTerms?: boolean;
    translate?: boolean;
    hintValues?: boolean;
  } = {},
): QueryTerms {
  const ids: number[] = [];
  const weights: number[] = [];
  const terms: string[] = [];
  const origins: TermOrigin[] = [];
  const sources: string[] = [];
  let mass = 0;
  let unknownMass = 0;
  const own = new Set<number>();
  const add = (id: number, term: string, weight: number, origin: TermOrigin, source: string) => {
    own.add(id);
    ids.push(id);
    weights.push(weight);
    terms.push(term);
    origins.push(origin);
    sources.push(source);
  };
  const learnedWeight = (term: string) => (options.weighTerms === false ? 1 : learnedTerm(term).weight);
  const text = query.length > MAX_QUERY_CHARS ? query.slice(0, MAX_QUERY_CHARS) : query;
  const raw = words(text);
  const analysed = analyseRequest(raw);
  const translation =
    options.translate === false
      ? undefined
      : translateCjk(text, (spelling) => catalogSpelling(index, spelling) !== undefined);
  const loanwords =
    translation === undefined
      ? []
      : spellLoanwords(index, translation.loanwords, typos, options.correctTypos !== false);
  if (translation !== undefined) {
    // The bigrams a translated word spans stand for it; those no tool contains are not missing words.
    for (const bigram of translation.covered) if (index.termId(bigram) === undefined) analysed.delete(bigram);
    // A katakana word found in Latin letters is that word: its bigrams are only pieces of it.
    for (const { bigrams } of loanwords) for (const bigram of bigrams) analysed.delete(bigram);
  }
  const implied: string[] = [];
  // Implied terms count only where the catalog has them (an unknown one would lower coverage).
  for (const term of impliedQueryTerms(text))
    if (index.termId(term) !== undefined && !analysed.has(term) && !implied.includes(term)) implied.push(term);
  let unknown = 0;
  // The request's words the catalog knows poorly or not at all: where vocabulary mismatch is.
  const weak: { term: string; weight: number }[] = [];
  // The request's words (known to the catalog or not: a CJK pair no English tool has may still have
  // learned related words) and the terms its values imply, for the learned related words; none
  // when the request is too long to be expanded at all. Words no tool has count at weight 1, as in
  // the mass (their learned weight, with implied terms left out, lowered LiveMCPBench's frozen test).
  const said: { term: string; weight: number }[] = [];
  const relating = options.expand !== false && options.relate !== false && analysed.size <= EXPANSION.maxTermsToExpand;
  const visit = (
    term: string,
    isImplied: boolean,
    origin: TermOrigin = isImplied ? 'implied' : 'query',
    from = term,
  ) => {
    const id = index.termId(term);
    if (!isImplied) analysed.set(term, id ?? -1);
    if (id !== undefined) {
      if (own.has(id)) return;
      const weight = isImplied ? 1 : learnedWeight(term);
      mass += weight * index.idf(id);
      add(id, term, weight, origin, from);
      if (relating) said.push({ term, weight });
      if (index.documentFrequency(id) <= EXPANSION.weakDocumentFrequency) weak.push({ term, weight });
      return;
    }
    // A word no tool contains: perhaps a typo of one that does (bounded: the first few only).
    const correction = options.correctTypos !== false && unknown < MAX_UNKNOWN_TERMS ? typos().match(term) : undefined;
    if (correction !== undefined && !own.has(correction.id)) {
      mass += index.idf(correction.id);
      add(correction.id, correction.term, EXPANSION.typoWeight, 'typo', term);
      unknown += 1;
      return;
    }
    weak.push({ term, weight: 1 });
    if (relating) said.push({ term, weight: 1 });
    // Words no tool contains make a query less answerable, but only the first few count: a
    // pasted blob (a base64 image, a log line) must not drown the words that do match.
    // A value the request carries (an id, "9am", a fault code) that no tool has is not a
    // capability the catalog lacks: it stays out of the unknown mass.
    if (isValueWord(term)) return;
    const missing = unknown++ < MAX_UNKNOWN_TERMS ? index.maxIdf : 0;
    mass += missing;
    unknownMass += missing;
  };
  for (const term of analysed.keys()) visit(term, false);
  for (const term of implied) visit(term, true);
  if (translation !== undefined) {
    // English words the catalog lacks are left out: they would only count as missing.
    for (const { term, rendering } of translation.terms)
      if (index.termId(term) !== undefined && !analysed.has(term)) visit(term, false, 'translation', rendering);
    for (const { term, id, weight, katakana } of loanwords) {
      if (own.has(id)) continue;
      analysed.set(term, id);
      const w = weight * learnedWeight(term);
      mass += w * index.idf(id);
      add(id, term, w, 'translation', katakana);
    }
    for (const { term, rendering } of translation.synonyms) {
      const id = index.termId(term);
      if (id === undefined || own.has(id)) continue;
      add(id, term, EXPANSION.synonymWeight * learnedWeight(term), 'synonym', rendering);
    }
  }
  // Glossary renderings for every word of the request, known here or not ("game" in a catalog
  // whose game tools are described only in Chinese), weighted like the word.
  for (const term of analysed.keys()) {
    const renderings = glossaryTerms(term);
    if (renderings.length === 0) continue;
    const weight = learnedWeight(term);
    for (const rendering of renderings) {
      const id = index.termId(rendering);
      if (id !== undefined && !own.has(id)) add(id, rendering, EXPANSION.glossaryWeight * weight, 'glossary', term);
    }
  }
  // Parameter words the request's values imply: outside the mass, like the other added terms (they
  // say again what the value says), so they never make a request look more answerable.
  if (options.hintValues !== false)
    for (const { term, kind } of valueHints(text)) {
      const id = index.termId(term);
      if (id !== undefined && !own.has(id)) add(id, term, EXPANSION.valueHintWeight, 'value', kind);
    }
  if (options.expand !== false && analysed.size <= EXPANSION.maxTermsToExpand) {
    expand(
      index,
      weak,
      own,
      add,
      options.expansionScale ?? 1,
      (term) => learnedTerm(term).associations,
      EXPANSION.maxAssociations,
      'association',
    );
    if (relating)
      expand(
        index,
        said,
        own,
        add,
        options.relatedScale ?? 1,
        (term) => learnedTerm(term).related,
        EXPANSION.maxRelated,
        'related',
      );
  }
  return { ids, weights, terms, origins, sources, mass, unknownMass, words: raw, analysed };
}

/** Katakana words shorter than this in Latin letters must be spelled exactly as a catalog term. */
const MIN_LOANWORD_LETTERS = 4;

/** The catalog term a katakana word's Latin spelling is, as it is (at least `MIN_LOANWORD_LETTERS`). */
function catalogSpelling(index: Bm25Index, spelling: string): { term: string; id: number } | undefined {
  if (spelling.length < MIN_LOANWORD_LETTERS) return undefined;
  const term = stem(spelling);
  const id = index.termId(term);
  return id === undefined ? undefined : { term, id };
}

/**
 * The catalog terms the request's katakana words are (`Translation.loanwords`): a spelling that is
 * a catalog term as it is (weight 1), else the typo matcher's correction of it (at the typo weight).
 */
function spellLoanwords(
  index: Bm25Index,
  loanwords: readonly { katakana: string; spellings: readonly string[] }[],
  typos: () => TypoMatcher,
  correctTypos: boolean,
): { term: string; id: number; weight: number; katakana: string; bigrams: readonly string[] }[] {
  const found: { term: string; id: number; weight: number; katakana: string; bigrams: readonly string[] }[] = [];
  const corrected = (spelling: string) => {
    const correction = correctTypos ? typos().match(stem(spelling)) : undefined;
    return correction === undefined ? undefined : { term: correction.term, id: correction.id };
  };
  for (const { katakana, spellings } of loanwords) {
    const exact = firstOf(spellings, (spelling) => catalogSpelling(index, spelling));
    const hit = exact ?? firstOf(spellings, corrected);
    if (hit === undefined) continue;
    const weight = exact === undefined ? EXPANSION.typoWeight : 1;
    found.push({ ...hit, weight, katakana, bigrams: analyze(katakana) });
  }
  return found;
}

/** The first defined `pick` of the items, in order. */
function firstOf<T, R>(items: readonly T[], pick: (item: T) => R | undefined): R | undefined {
  for (const item of items) {
    const picked = pick(item);
    if (picked !== undefined) return picked;
  }
  return undefined;
}

/**
 * The request's distinct terms in order, as `analyzeQuery` gives them cut at `MAX_QUERY_TERMS`
 * (stop words dropped unless the request is nothing but stop words), from its words split once.
 */
function analyseRequest(raw: readonly string[]): Map<string, number> {
  const analysed = new Map<string, number>();
  for (const dropStopWords of [true, false]) {
    let count = 0;
    for (const word of raw) {
      for (const term of wordTerms(word, dropStopWords)) {
        if (count === MAX_QUERY_TERMS) return analysed;
        count += 1;
        analysed.set(term, -1); // a term seen before keeps its place
      }
    }
    if (count > 0) return analysed;
  }
  return analysed;
}

/** Adds the strongest learned associations of the request's terms (each target once, at its best weight). */
function expand(
  index: Bm25Index,
  sources: readonly { term: string; weight: number }[],
  own: ReadonlySet<number>,
  add: (id: number, term: string, weight: number, origin: TermOrigin, source: string) => void,
  scaleBy: number,
  associationsOf: (term: string) => readonly { term: string; weight: number }[],
  most: number,
  origin: TermOrigin,
): void {
  const best = new Map<number, { term: string; weight: number; source: string }>();
  const count = Math.min(sources.length, EXPANSION.maxTermsToExpand);
  for (let at = 0; at < count; at += 1) {
    const { term: source, weight: sourceWeight } = sources[at] as { term: string; weight: number };
    const scale = sourceWeight * scaleBy;
    for (const { term, weight } of associationsOf(source)) {
      const id = index.termId(term);
      if (id === undefined || own.has(id)) continue;
      const w = weight * scale;
      const seen = best.get(id);
      if (seen === undefined || w > seen.weight) best.set(id, { term, weight: w, source });
    }
  }
  [...best]
    .sort((a, b) => b[1].weight - a[1].weight || a[0] - b[0])
    .slice(0, most)
    .forEach(([id, { term, weight, source }]) => add(id, term, weight, origin, source));
}
