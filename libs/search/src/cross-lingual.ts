import { analyze, stem } from './analyzer';
import { CJK_LEXICON } from './data/cjk-lexicon';

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
}

/** Longest rendering in characters (bounds the work at each position of a request). */
let longest = 0;
/** Renderings by their first character, longest first, each with its English stems. */
let byFirst: Map<string, { rendering: string; stems: readonly string[] }[]> | undefined;

function table(): Map<string, { rendering: string; stems: readonly string[] }[]> {
  if (byFirst !== undefined) return byFirst;
  const stemsOf = new Map<string, string[]>();
  for (const line of CJK_LEXICON.split('\n')) {
    const [english, japanese = '', chinese = ''] = line.split('\t');
    if (english === undefined || english.trim() === '') continue;
    const stemmed = stem(english.trim().toLowerCase());
    for (const rendering of `${japanese} ${chinese}`.split(' ')) {
      if ([...rendering].length < 2) continue;
      const stems = stemsOf.get(rendering) ?? [];
      if (!stems.includes(stemmed)) stems.push(stemmed);
      stemsOf.set(rendering, stems);
    }
  }
  const built = new Map<string, { rendering: string; stems: readonly string[] }[]>();
  for (const [rendering, stems] of stemsOf) {
    const first = rendering[0] as string;
    const list = built.get(first) ?? [];
    list.push({ rendering, stems });
    built.set(first, list);
    longest = Math.max(longest, rendering.length);
  }
  for (const list of built.values()) list.sort((a, b) => b.rendering.length - a.rendering.length);
  byFirst = built;
  return built;
}

const HAS_CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

/** At most this many renderings are taken from one request, from at most its first `MAX_SCANNED` characters. */
export const MAX_RENDERINGS = 32;
const MAX_SCANNED = 2048;

/** The English words a Japanese or Chinese request says; undefined when it has no CJK text or no known word. */
export function translateCjk(text: string): Translation | undefined {
  if (!HAS_CJK.test(text)) return undefined;
  const renderings = table();
  const terms: { term: string; rendering: string }[] = [];
  const synonyms: { term: string; rendering: string }[] = [];
  const seen = new Set<string>();
  const covered = new Set<string>();
  let found = 0;
  const end = Math.min(text.length, MAX_SCANNED);
  for (let at = 0; at < end && found < MAX_RENDERINGS; ) {
    const candidates = renderings.get(text[at] as string);
    const match = candidates?.find(({ rendering }) => text.startsWith(rendering, at));
    if (match === undefined) {
      at += 1;
      continue;
    }
    found += 1;
    at += match.rendering.length;
    for (const bigram of analyze(match.rendering)) covered.add(bigram);
    match.stems.forEach((term, position) => {
      if (seen.has(term)) return;
      seen.add(term);
      (position === 0 ? terms : synonyms).push({ term, rendering: match.rendering });
    });
  }
  return terms.length === 0 ? undefined : { terms, synonyms, covered };
}

/** Longest rendering of the lexicon, in UTF-16 units (for tests of the bound). */
export function longestRendering(): number {
  table();
  return longest;
}
