/**
 * Katakana in Latin letters (Hepburn). Japanese writes foreign words and names in katakana —
 * ウィキペディア, ポケモン, チャンピオン — and most of them are the English words or names a tool
 * catalog uses, so their romanisation (with the vowels Japanese adds between consonants taken out
 * again) is often that word exactly or within an edit: wikipedia, pokemon, champion, skin.
 */

// prettier-ignore
const SYLLABLES: Readonly<Record<string, string>> = {
  ア: 'a', イ: 'i', ウ: 'u', エ: 'e', オ: 'o',
  カ: 'ka', キ: 'ki', ク: 'ku', ケ: 'ke', コ: 'ko',
  ガ: 'ga', ギ: 'gi', グ: 'gu', ゲ: 'ge', ゴ: 'go',
  サ: 'sa', シ: 'shi', ス: 'su', セ: 'se', ソ: 'so',
  ザ: 'za', ジ: 'ji', ズ: 'zu', ゼ: 'ze', ゾ: 'zo',
  タ: 'ta', チ: 'chi', ツ: 'tsu', テ: 'te', ト: 'to',
  ダ: 'da', ヂ: 'ji', ヅ: 'zu', デ: 'de', ド: 'do',
  ナ: 'na', ニ: 'ni', ヌ: 'nu', ネ: 'ne', ノ: 'no',
  ハ: 'ha', ヒ: 'hi', フ: 'fu', ヘ: 'he', ホ: 'ho',
  バ: 'ba', ビ: 'bi', ブ: 'bu', ベ: 'be', ボ: 'bo',
  パ: 'pa', ピ: 'pi', プ: 'pu', ペ: 'pe', ポ: 'po',
  マ: 'ma', ミ: 'mi', ム: 'mu', メ: 'me', モ: 'mo',
  ヤ: 'ya', ユ: 'yu', ヨ: 'yo',
  ラ: 'ra', リ: 'ri', ル: 'ru', レ: 're', ロ: 'ro',
  ワ: 'wa', ヲ: 'o', ン: 'n', ヴ: 'vu',
  ァ: 'a', ィ: 'i', ゥ: 'u', ェ: 'e', ォ: 'o',
};

/** A syllable and a small vowel or y-kana after it: the pair's sound (キャ kya, ウィ wi, ティ ti). */
// prettier-ignore
const PAIRS: Readonly<Record<string, string>> = {
  キャ: 'kya', キュ: 'kyu', キョ: 'kyo', ギャ: 'gya', ギュ: 'gyu', ギョ: 'gyo',
  シャ: 'sha', シュ: 'shu', ショ: 'sho', シェ: 'she', ジャ: 'ja', ジュ: 'ju', ジョ: 'jo', ジェ: 'je',
  チャ: 'cha', チュ: 'chu', チョ: 'cho', チェ: 'che', ニャ: 'nya', ニュ: 'nyu', ニョ: 'nyo',
  ヒャ: 'hya', ヒュ: 'hyu', ヒョ: 'hyo', ビャ: 'bya', ビュ: 'byu', ビョ: 'byo',
  ピャ: 'pya', ピュ: 'pyu', ピョ: 'pyo', ミャ: 'mya', ミュ: 'myu', ミョ: 'myo',
  リャ: 'rya', リュ: 'ryu', リョ: 'ryo',
  ウィ: 'wi', ウェ: 'we', ウォ: 'wo', ヴァ: 'va', ヴィ: 'vi', ヴェ: 've', ヴォ: 'vo',
  ファ: 'fa', フィ: 'fi', フェ: 'fe', フォ: 'fo', ティ: 'ti', ディ: 'di', トゥ: 'tu', ドゥ: 'du',
  デュ: 'dyu', テュ: 'tyu', ツァ: 'tsa', ツェ: 'tse', ツォ: 'tso',
};

const VOWELS = new Set(['a', 'i', 'u', 'e', 'o']);

/** Hepburn romanisation of a run of katakana; undefined when it holds anything else. */
export function romanize(katakana: string): string | undefined {
  let out = '';
  let double = false;
  let afterN = false;
  for (let at = 0; at < katakana.length; ) {
    const char = katakana[at] as string;
    if (char === 'ッ') {
      double = true;
      at += 1;
      continue;
    }
    if (char === 'ー' || char === '・') {
      at += 1; // long vowels are not written in the English word
      continue;
    }
    const pair = PAIRS[katakana.slice(at, at + 2)];
    const sound = pair ?? SYLLABLES[char];
    if (sound === undefined) return undefined;
    at += pair === undefined ? 1 : 2;
    // ン before b, m or p is m (チャンピオン: champion).
    if (afterN && (sound[0] === 'b' || sound[0] === 'm' || sound[0] === 'p')) out = `${out.slice(0, -1)}m`;
    if (double) out += sound.startsWith('ch') ? 't' : (sound[0] ?? '');
    double = false;
    afterN = char === 'ン' && pair === undefined;
    out += sound;
  }
  return out;
}

/**
 * The romanisation without the vowels Japanese puts after a consonant that English leaves bare:
 * a `u` between consonants or at the end (sukin → skin, randamu → randam) and a final `o` after t
 * or d (tekisuto → tekist).
 */
export function withoutAddedVowels(romaji: string): string {
  let out = '';
  for (let at = 0; at < romaji.length; at += 1) {
    const char = romaji[at] as string;
    const before = romaji[at - 1];
    const after = romaji[at + 1];
    const afterConsonant = before !== undefined && !VOWELS.has(before);
    if (char === 'u' && afterConsonant && (after === undefined || !VOWELS.has(after))) continue;
    if (char === 'o' && after === undefined && (before === 't' || before === 'd')) continue;
    out += char;
  }
  return [...out].some((char) => VOWELS.has(char)) ? out : romaji;
}
