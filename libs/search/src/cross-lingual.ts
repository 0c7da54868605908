import { analyze, stem, wordTerms } from './analyzer';
import { CJK_LEXICON } from './data/cjk-lexicon';
import { romanize, withoutAddedVowels } from './katakana';

/**
 * Requests written in Japanese or Chinese against tools described in English. Lexical search has
 * no shared word to go on (a CJK request is indexed as character bigrams, an English catalog has
 * none of them), so such requests either find nothing or find whichever tool happens to carry CJK
 * text. The lexicon (`data/cjk-lexicon.ts`) renders the catalogs' commonest English words in both
 * languages; the renderings found in a request stand for those English words.
 *
 * Matching is leftmost-longest over the request's characters: "ファイルを削除" finds ファイル
 * (file) and 削除 (delete). A rendering may translate several English words (削除: delete,
 * remove); the first listed is the word the request is taken to say, the others are synonyms
 * added at lower weight.
 */
export interface Translation {
  /** The English terms (analysed stems) the request says, in order, each once. */
  readonly terms: readonly { term: string; rendering: string }[];
  /** Lower-weight synonyms of those terms. */
  readonly synonyms: readonly { term: string; rendering: string }[];
  /** The CJK bigrams inside the renderings found: they are what the English terms stand for. */
  readonly covered: ReadonlySet<string>;
  /**
   * Katakana words to look for in the catalog in Latin letters, with their spellings (the
   * romanisation, then without the vowels Japanese adds): ポケモン → pokemon. Those whose spelling
   * is a catalog word are taken whole, before any rendering inside them; the others only where no
   * rendering covers them. At most `MAX_LOANWORDS`.
   */
  readonly loanwords: readonly { katakana: string; spellings: readonly string[] }[];
}

/**
 * Renderings by their first two UTF-16 units, longest first, each with its English stems, packed
 * into one string per start — `rendering \u0001 stems (space-separated) \u0002 rendering …` — so
 * that 7,900 renderings take about a megabyte less than as objects and arrays. A position of a
 * request is compared with the few renderings that start like it (keyed on one character, a run of
 * ス tried 108 renderings at every position).
 */
let byStart: Map<string, string> | undefined;
const STEMS = '\u0001';
const NEXT = '\u0002';
/**
 * Renderings are only taken with a kanji, hanzi or katakana in them: a rendering of hiragana or
 * Latin letters alone matched inside unrelated words (がん, "cancer", inside がんばって; "SF" inside
 * "SFTP"), and Latin words are searched as themselves anyway.
 */
const WORD_SCRIPT = /[\p{Script=Han}\p{Script=Katakana}]/u;

function table(): Map<string, string> {
  if (byStart !== undefined) return byStart;
  const stemsOf = new Map<string, string[]>();
  for (const line of CJK_LEXICON.split('\n')) {
    const [english, japanese = '', chinese = ''] = line.split('\t');
    if (english === undefined || english.trim() === '') continue;
    // A word an English request would drop as a stop word ("now", "like") says nothing here either.
    if (wordTerms(english.trim().toLowerCase(), true).length === 0) continue;
    const stemmed = stem(english.trim().toLowerCase());
    // One word per entry: the packed table separates stems by spaces (a phrase is never a catalog term).
    if (/\s/.test(stemmed) || stemmed.includes(STEMS) || stemmed.includes(NEXT)) continue;
    for (const rendering of `${japanese} ${chinese}`.split(' ')) {
      if ([...rendering].length < 2 || !WORD_SCRIPT.test(rendering)) continue;
      const stems = stemsOf.get(rendering) ?? [];
      if (!stems.includes(stemmed)) stems.push(stemmed);
      stemsOf.set(rendering, stems);
    }
  }
  const lists = new Map<string, string[]>();
  for (const rendering of stemsOf.keys()) {
    const start = rendering.slice(0, 2);
    const list = lists.get(start) ?? [];
    list.push(rendering);
    lists.set(start, list);
  }
  const built = new Map<string, string>();
  for (const [start, list] of lists) {
    list.sort((a, b) => b.length - a.length);
    built.set(
      start,
      list.map((rendering) => `${rendering}${STEMS}${(stemsOf.get(rendering) ?? []).join(' ')}`).join(NEXT),
    );
  }
  byStart = built;
  return built;
}

/** The longest rendering of `packed` (one start's, longest first) that `text` has at `at`. */
function renderingAt(packed: string, text: string, at: number): { rendering: string; stems: string[] } | undefined {
  for (let from = 0; from < packed.length; ) {
    const stems = packed.indexOf(STEMS, from);
    const next = packed.indexOf(NEXT, stems);
    const stop = next < 0 ? packed.length : next;
    let same = at + stems - from <= text.length;
    for (let k = 0; same && k < stems - from; k += 1) same = text.charCodeAt(at + k) === packed.charCodeAt(from + k);
    if (same) return { rendering: packed.slice(from, stems), stems: packed.slice(stems + 1, stop).split(' ') };
    from = stop + 1;
  }
  return undefined;
}

const HAS_CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

/** At most this many renderings are taken from one request, from at most its first `MAX_SCANNED` characters. */
export const MAX_RENDERINGS = 32;
/** At most this many katakana words of a request are spelled in Latin letters. */
export const MAX_LOANWORDS = 8;
/** Longer katakana runs are not words (a pasted blob): not spelled. */
const MAX_LOANWORD_CHARS = 24;
const KATAKANA_WORD = /[\p{Script=Katakana}ー]{3,}/gu;
const MAX_SCANNED = 2048;

/**
 * The English words a Japanese or Chinese request says; undefined when it has no CJK text or no
 * known word. A katakana word whose Latin spelling `isCatalogWord` knows is taken whole, before any
 * rendering inside it (ウィキペディア is wikipedia, not ウィキ and the rest).
 */
export function translateCjk(request: string, isCatalogWord?: (spelling: string) => boolean): Translation | undefined {
  if (!HAS_CJK.test(request)) return undefined;
  // NFKC: half-width katakana (ｶﾒﾗ), full-width Latin (ＤＢ) and decomposed voiced kana read as usual.
  const text = request.slice(0, MAX_SCANNED * 2).normalize('NFKC');
  const renderings = table();
  const terms: { term: string; rendering: string }[] = [];
  const synonyms: { term: string; rendering: string }[] = [];
  /** Each English term once: as a term, or as a synonym until a rendering says it first. */
  const seen = new Map<string, 'term' | 'synonym'>();
  const covered = new Set<string>();
  /** Where the renderings found are, as [start, end) pairs in order. */
  const spans: number[] = [];
  const loanwords: { katakana: string; spellings: readonly string[] }[] = [];
  let found = 0;
  const end = Math.min(text.length, MAX_SCANNED);
  for (let at = 0; at < end && found < MAX_RENDERINGS; ) {
    const whole =
      isCatalogWord === undefined || loanwords.length >= MAX_LOANWORDS
        ? undefined
        : wholeKatakanaWord(text, at, end, isCatalogWord);
    if (whole !== undefined) {
      loanwords.push(whole);
      spans.push(at, at + whole.katakana.length);
      at += whole.katakana.length;
      continue;
    }
    const candidates = renderings.get(text.slice(at, at + 2));
    const match = candidates === undefined ? undefined : renderingAt(candidates, text, at);
    if (match === undefined) {
      at += 1;
      continue;
    }
    found += 1;
    spans.push(at, at + match.rendering.length);
    at += match.rendering.length;
    for (const bigram of analyze(match.rendering)) covered.add(bigram);
    match.stems.forEach((term, position) => {
      const before = seen.get(term);
      if (before === 'term' || (before === 'synonym' && position > 0)) return;
      if (before === 'synonym')
        synonyms.splice(
          synonyms.findIndex((entry) => entry.term === term),
          1,
        );
      seen.set(term, position === 0 ? 'term' : 'synonym');
      (position === 0 ? terms : synonyms).push({ term, rendering: match.rendering });
    });
  }
  for (const word of katakanaWords(text.slice(0, end), spans))
    if (loanwords.length < MAX_LOANWORDS) loanwords.push(word);
  return terms.length === 0 && loanwords.length === 0 ? undefined : { terms, synonyms, covered, loanwords };
}

const IS_KATAKANA = /[\p{Script=Katakana}ー]/u;

/** The katakana word starting at `at` when it starts one there and `known` knows one of its spellings. */
function wholeKatakanaWord(text: string, at: number, end: number, known: (spelling: string) => boolean) {
  if (!IS_KATAKANA.test(text[at] as string) || (at > 0 && IS_KATAKANA.test(text[at - 1] as string))) return undefined;
  let stop = at + 1;
  while (stop < end && IS_KATAKANA.test(text[stop] as string)) stop += 1;
  if (stop - at < 3 || stop - at > MAX_LOANWORD_CHARS) return undefined;
  const spellings = spellingsOf(text.slice(at, stop));
  return spellings !== undefined && spellings.some(known) ? { katakana: text.slice(at, stop), spellings } : undefined;
}

function spellingsOf(katakana: string): string[] | undefined {
  const romaji = romanize(katakana);
  if (romaji === undefined || romaji === '') return undefined; // ーーー, ッッッ
  const reduced = withoutAddedVowels(romaji);
  return reduced === romaji ? [romaji] : [romaji, reduced];
}

/** The katakana words of `text` (three characters or more) that overlap no span of a rendering. */
function katakanaWords(text: string, spans: readonly number[]): { katakana: string; spellings: string[] }[] {
  const out: { katakana: string; spellings: string[] }[] = [];
  for (const match of text.matchAll(KATAKANA_WORD)) {
    if (out.length === MAX_LOANWORDS) break;
    const start = match.index;
    const end = start + match[0].length;
    if (match[0].length > MAX_LOANWORD_CHARS) continue;
    let overlaps = false;
    for (let at = 0; at < spans.length && !overlaps; at += 2)
      overlaps = (spans[at] as number) < end && (spans[at + 1] as number) > start;
    if (overlaps) continue;
    const spellings = spellingsOf(match[0]);
    if (spellings !== undefined) out.push({ katakana: match[0], spellings });
  }
  return out;
}
