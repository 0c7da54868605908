import { stemEnglish } from './english-stemmer';

const stems = new Map<string, string>();
const MAX_STEMS = 50_000;

/** Snowball English stem of a lowercase ASCII word, memoised (bounded). */
export function stem(word: string): string {
  let result = stems.get(word);
  if (result === undefined) {
    result = stemEnglish(word);
    if (stems.size >= MAX_STEMS) stems.clear();
    stems.set(word, result);
  }
  return result;
}

/**
 * Words dropped from queries (never from the index): they carry no meaning about which tool is
 * wanted, and in long requests they would otherwise pull in every tool that uses them.
 */
export const QUERY_STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a an the of in on for to and or with by from at as is are be been was were i me my we our us you your ' +
    'it its this that these those can could would should will shall please want need help some into about ' +
    'via any there their them they he she his her what which who whom whose how when where why do does did ' +
    'am if then so than too very just also such only own same other more most each both few up out over ' +
    'under again further once here all no nor not s t d m ll re ve don now let lets like make sure using use used ' +
    'tool tools also additionally would'
  ).split(' '),
);

// Scripts written without spaces between words: indexed as overlapping character bigrams.
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const CJK_RUNS =
  /([\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+)|([^\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+)/gu;
const WORDS = /[\p{L}\p{N}\p{M}]+/gu;
const ASCII_WORD = /^[a-z]+$/;
const ASCII_ALNUM = /^[A-Za-z0-9]*$/;

/** Splits camelCase and acronym boundaries: `getHTTPResponse2` → `get HTTP Response2`. */
function splitCamel(text: string): string {
  if (!HAS_UPPER.test(text)) return text;
  return text.replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2').replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2');
}
const HAS_UPPER = /\p{Lu}/u;
// eslint-disable-next-line no-control-regex -- "every character is ASCII" includes control characters
const PLAIN_ASCII = /^[\x00-\x7f]*$/;

// Hiragana in a Japanese request is mostly grammar: particles (を, に, で), endings (して, ます,
// られる) and the joins between words. Its bigrams match whichever tool happens to carry Japanese
// prose, not the tool asked for, so queries drop them like English stop words; the words around
// them (kanji, katakana) stay. Tool text keeps them.
const HIRAGANA = /\p{Script=Hiragana}/u;

function cjkBigrams(run: string, out: string[], dropGrammar: boolean): void {
  const chars = [...run];
  if (chars.length === 1) {
    const only = chars[0] ?? '';
    if (!(dropGrammar && HIRAGANA.test(only))) out.push(only);
    return;
  }
  for (let i = 0; i + 1 < chars.length; i += 1) {
    const bigram = `${chars[i]}${chars[i + 1]}`;
    if (!(dropGrammar && HIRAGANA.test(bigram))) out.push(bigram);
  }
}

function pushWord(word: string, out: string[], dropStopWords: boolean): void {
  // Letters and digits of ASCII have no marks to strip: most words of tool text take this path.
  const lower = ASCII_ALNUM.test(word)
    ? word.toLowerCase()
    : word
        .normalize('NFKD')
        .replace(/\p{M}+/gu, '')
        .toLowerCase();
  if (lower === '') return;
  if (dropStopWords && QUERY_STOP_WORDS.has(lower)) return;
  out.push(ASCII_WORD.test(lower) ? stem(lower) : lower);
}

/**
 * Turns text into index terms: snake_case, kebab-case, dots, slashes and camelCase split; letters
 * and digits of every script kept; runs of CJK characters as overlapping bigrams (seed 002's
 * approach for Japanese); English words lowercased and Snowball-stemmed; other words lowercased.
 */
export function analyze(text: string, dropStopWords = false): string[] {
  const out: string[] = [];
  for (const word of words(text)) for (const term of wordTerms(word, dropStopWords)) out.push(term);
  return out;
}

/** The raw words of a text (runs of letters, digits and marks), before any analysis. */
export function words(text: string): string[] {
  // Plain ASCII text (most tool text) splits much faster without Unicode property classes.
  return (PLAIN_ASCII.test(text) ? text.match(ASCII_WORDS) : text.match(WORDS)) ?? [];
}
const ASCII_WORDS = /[A-Za-z0-9]+/g;

/** The index terms of one raw word (cached): what `analyze` produces for it. */
export function wordTerms(word: string, dropStopWords = false): readonly string[] {
  const cache = dropStopWords ? queryWords : indexWords;
  let terms = cache.get(word);
  if (terms === undefined) {
    terms = analyzeWord(word, dropStopWords);
    if (cache.size >= MAX_CACHED_WORDS) cache.clear();
    cache.set(word, terms);
  }
  return terms;
}

// Words repeat across a catalog far more than they differ, so each word is analysed once.
const MAX_CACHED_WORDS = 100_000;
const indexWords = new Map<string, readonly string[]>();
const queryWords = new Map<string, readonly string[]>();

function analyzeWord(word: string, dropStopWords: boolean): string[] {
  const out: string[] = [];
  if (ASCII_WORD.test(word)) {
    if (!(dropStopWords && QUERY_STOP_WORDS.has(word))) out.push(stem(word));
    return out;
  }
  if (CJK.test(word)) {
    for (const part of word.matchAll(CJK_RUNS)) {
      if (part[1] !== undefined) cjkBigrams(part[1], out, dropStopWords);
      else if (part[2] !== undefined) pushWords(part[2], out, dropStopWords);
    }
  } else pushWords(word, out, dropStopWords);
  return out;
}

/**
 * A word and, when it is camelCase, also its parts: `WeChat` gives `wechat`, `we`, `chat`, so
 * "wechat" and "we chat" both find it, and `arXiv` meets "arxiv".
 */
function pushWords(word: string, out: string[], dropStopWords: boolean): void {
  const parts = splitCamel(word).split(' ');
  if (parts.length > 1) pushWord(word, out, false);
  for (const part of parts) pushWord(part, out, dropStopWords);
}

/**
 * Each index term of a text (what `analyze` gives) with the word of the text it came from, the
 * first one, lowercased: `repositori` → `repositories`. Stems are for comparing; people are shown
 * the words. A camelCase word's parts and a Latin run inside CJK text each get their own word; a
 * CJK bigram is already a piece of the text and stands for itself.
 */
export function termSurfaces(text: string): Map<string, string> {
  const surfaces = new Map<string, string>();
  const note = (term: string, surface: string) => {
    if (!surfaces.has(term)) surfaces.set(term, surface.toLowerCase());
  };
  for (const word of words(text)) {
    const terms = wordTerms(word);
    const [only] = terms;
    if (terms.length === 1 && only !== undefined) {
      note(only, word);
      continue;
    }
    const runs = word.match(CJK_RUNS) ?? [];
    for (const piece of [word, ...runs, ...runs.flatMap((run) => splitCamel(run).split(' '))]) {
      const pieceTerms = wordTerms(piece.toLowerCase());
      // Only a piece that gives exactly one of the word's terms names it unambiguously.
      if (pieceTerms.length === 1 && pieceTerms[0] !== undefined && terms.includes(pieceTerms[0]))
        note(pieceTerms[0], piece);
    }
    for (const term of terms) note(term, term);
  }
  return surfaces;
}

/**
 * Query terms: the analyzer with stop words removed. A query made only of stop words keeps them,
 * so "list all" or "get it" still means something.
 */
export function analyzeQuery(query: string): string[] {
  const terms = analyze(query, true);
  return terms.length > 0 ? terms : analyze(query, false);
}

/** Whether an analysed term is a piece of CJK text (a character pair, or a lone character). */
export function isCjkTerm(term: string): boolean {
  return CJK.test(term);
}

/**
 * A word that is a value the request carries rather than a capability: it starts with a digit
 * ("9am", "3d6", an order number) or has three digits or more ("p0420", "inv2024x"). "k8s",
 * "ec2" or "mp4" name things and count as words. One pass, no pattern.
 */
export function isValueWord(term: string): boolean {
  const first = term.charCodeAt(0);
  if (first >= 48 && first <= 57) return true;
  let digits = 0;
  for (let at = 1; at < term.length; at += 1) {
    const code = term.charCodeAt(at);
    if (code >= 48 && code <= 57 && ++digits >= 3) return true;
  }
  return false;
}
