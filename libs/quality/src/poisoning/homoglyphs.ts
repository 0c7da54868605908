/**
 * Letters of Cyrillic and Greek (and a few Latin look-alikes) that pass for Latin letters in the
 * fonts tool names are shown in, each with the Latin letter it imitates. A short hand-made subset
 * of Unicode's confusables list (UTS #39): tool names are ASCII identifiers in practice, so the
 * pairs that matter are those that imitate ASCII letters and digits. Full-width forms are folded
 * separately (they map by a fixed offset).
 */
const CONFUSABLE_PAIRS: readonly (readonly [string, string])[] = [
  // Cyrillic lower case
  ['а', 'a'],
  ['в', 'b'],
  ['с', 'c'],
  ['ԁ', 'd'],
  ['е', 'e'],
  ['ё', 'e'],
  ['һ', 'h'],
  ['і', 'i'],
  ['ї', 'i'],
  ['ј', 'j'],
  ['к', 'k'],
  ['ӏ', 'l'],
  ['м', 'm'],
  ['н', 'h'],
  ['о', 'o'],
  ['р', 'p'],
  ['ԛ', 'q'],
  ['г', 'r'],
  ['ѕ', 's'],
  ['т', 't'],
  ['у', 'y'],
  ['ԝ', 'w'],
  ['х', 'x'],
  ['ү', 'y'],
  ['ь', 'b'],
  ['п', 'n'],
  // Cyrillic upper case
  ['А', 'a'],
  ['В', 'b'],
  ['С', 'c'],
  ['Е', 'e'],
  ['Н', 'h'],
  ['І', 'i'],
  ['Ј', 'j'],
  ['К', 'k'],
  ['М', 'm'],
  ['О', 'o'],
  ['Р', 'p'],
  ['Ѕ', 's'],
  ['Т', 't'],
  ['Х', 'x'],
  ['У', 'y'],
  ['Ԝ', 'w'],
  // Greek
  ['α', 'a'],
  ['β', 'b'],
  ['ε', 'e'],
  ['η', 'n'],
  ['ι', 'i'],
  ['κ', 'k'],
  ['ν', 'v'],
  ['ο', 'o'],
  ['ρ', 'p'],
  ['τ', 't'],
  ['υ', 'u'],
  ['χ', 'x'],
  ['γ', 'y'],
  ['ω', 'w'],
  ['Α', 'a'],
  ['Β', 'b'],
  ['Ε', 'e'],
  ['Ζ', 'z'],
  ['Η', 'h'],
  ['Ι', 'i'],
  ['Κ', 'k'],
  ['Μ', 'm'],
  ['Ν', 'n'],
  ['Ο', 'o'],
  ['Ρ', 'p'],
  ['Τ', 't'],
  ['Υ', 'y'],
  ['Χ', 'x'],
  // Latin letters outside ASCII that read as ASCII ones
  ['ı', 'i'],
  ['ɡ', 'g'],
  ['ɑ', 'a'],
  ['ʟ', 'l'],
  ['ℓ', 'l'],
  ['ⅰ', 'i'],
  ['ⅼ', 'l'],
];
const CONFUSABLES: ReadonlyMap<number, string> = new Map(
  CONFUSABLE_PAIRS.map(([from, to]) => [from.codePointAt(0) ?? 0, to]),
);

/**
 * What a name looks like: confusable letters replaced by the Latin letter they imitate, full-width
 * forms folded, lower case, and the digits 0 and 1 read as o and l. Two names with the same
 * skeleton look the same to a reader.
 */
export function skeleton(name: string): string {
  let out = '';
  for (const char of name) {
    let code = char.codePointAt(0) ?? 0;
    if (code >= 0xff01 && code <= 0xff5e) code -= 0xfee0;
    const mapped = CONFUSABLES.get(code) ?? String.fromCodePoint(code).toLowerCase();
    out += mapped === '0' ? 'o' : mapped === '1' ? 'l' : mapped;
  }
  return out;
}

/** Whether a name has a character that imitates ASCII (a confusable letter or a full-width form). */
export function hasImitation(name: string): boolean {
  for (const char of name) {
    const code = char.codePointAt(0) ?? 0;
    if (CONFUSABLES.has(code) || (code >= 0xff01 && code <= 0xff5e)) return true;
  }
  return false;
}

const LATIN = /\p{Script=Latin}/u;
const OTHER_ALPHABET = /[\p{Script=Cyrillic}\p{Script=Greek}\p{Script=Armenian}\p{Script=Cherokee}]/u;

/**
 * Whether a name mixes Latin letters with an alphabet whose letters pass for Latin ones (Cyrillic,
 * Greek, Armenian, Cherokee). Mixing Latin with Han or kana is ordinary (`get_天気`) and not flagged.
 */
export function isMixedScript(name: string): boolean {
  return LATIN.test(name) && OTHER_ALPHABET.test(name);
}
