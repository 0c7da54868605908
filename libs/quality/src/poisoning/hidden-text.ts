import { poisonFinding, type PoisonCode, type PoisonFinding } from './poison-codes';
import type { TextField } from './text-fields';

type HiddenKind = 'tag' | 'bidi' | 'zeroWidth' | 'ignorable';

/**
 * What a code point hides, if anything. Tag characters (U+E0000–E007F) spell ASCII invisibly;
 * bidirectional embeddings, overrides and isolates reorder what is shown (Trojan Source); the
 * zero-width family splits or hides words; the rest are the other default-ignorable code points
 * of Unicode that render as nothing (soft hyphen, Hangul fillers, variation selectors…).
 */
function hiddenKind(code: number): HiddenKind | undefined {
  if (code < 0xad) return undefined;
  if (code >= 0xe0000 && code <= 0xe007f) return 'tag';
  if ((code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069)) return 'bidi';
  if ((code >= 0x200b && code <= 0x200d) || (code >= 0x2060 && code <= 0x2064) || code === 0xfeff || code === 0x180e)
    return 'zeroWidth';
  if (
    code === 0xad ||
    code === 0x34f ||
    code === 0x61c ||
    code === 0x115f ||
    code === 0x1160 ||
    code === 0x17b4 ||
    code === 0x17b5 ||
    (code >= 0x180b && code <= 0x180d) ||
    code === 0x180f ||
    (code >= 0x2065 && code <= 0x206f) ||
    code === 0x3164 ||
    (code >= 0xfe00 && code <= 0xfe0f) ||
    code === 0xffa0 ||
    (code >= 0xfff0 && code <= 0xfff8) ||
    (code >= 0x1bca0 && code <= 0x1bca3) ||
    (code >= 0x1d173 && code <= 0x1d17a) ||
    (code >= 0xe0080 && code <= 0xe0fff)
  )
    return 'ignorable';
  return undefined;
}

/** Whether a code point renders as nothing (dropped before phrase matching). */
export function isHiddenCode(code: number): boolean {
  return hiddenKind(code) !== undefined;
}

const KIND_CODE: Record<HiddenKind, PoisonCode> = {
  tag: 'INVISIBLE_TAGS',
  bidi: 'BIDI_CONTROL',
  zeroWidth: 'ZERO_WIDTH',
  ignorable: 'DEFAULT_IGNORABLE',
};
const PICTOGRAPH = /\p{Extended_Pictographic}|\p{Emoji_Modifier}|\p{Regional_Indicator}/u;
const JOINING_LETTER =
  /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Devanagari}\p{Script=Bengali}\p{Script=Malayalam}\p{Script=Kannada}\p{Script=Telugu}\p{Script=Tamil}\p{Script=Sinhala}]/u;
const HAN = /\p{Script=Han}/u;
/** A run this long carries a message (about one hidden character per letter), not an accident. */
const PAYLOAD_RUN = 4;

/**
 * Whether one hidden character is ordinary in its place: a zero-width joiner or variation selector
 * inside an emoji sequence, a joiner or non-joiner between letters of a script that uses them, an
 * ideographic variation selector after a Han character, a byte-order mark at the very start.
 */
function isBenign(code: number, before: string, after: string, index: number): boolean {
  if (code === 0xfeff) return index === 0;
  if (code === 0x200d || (code >= 0xfe00 && code <= 0xfe0f))
    return (
      PICTOGRAPH.test(before) ||
      (code === 0x200d && PICTOGRAPH.test(after)) ||
      after === '\u20e3' ||
      (code === 0xfe0e && before !== '')
    );
  if (code === 0x200c || code === 0x200d) return JOINING_LETTER.test(before) || JOINING_LETTER.test(after);
  if (code >= 0xe0100 && code <= 0xe01ef) return HAN.test(before);
  if (code === 0xad) return /\p{L}/u.test(before) && /\p{L}/u.test(after);
  return false;
}

function previousChar(text: string, index: number): string {
  if (index === 0) return '';
  const low = text.charCodeAt(index - 1);
  const start = low >= 0xdc00 && low <= 0xdfff && index >= 2 ? index - 2 : index - 1;
  return String.fromCodePoint(text.codePointAt(start) ?? 0);
}

function visible(code: number): string {
  // Tag characters mirror ASCII 0x20–0x7E: show what they spell.
  if (code >= 0xe0020 && code <= 0xe007e) return String.fromCharCode(code - 0xe0000);
  return `<U+${code.toString(16).toUpperCase().padStart(4, '0')}>`;
}

/**
 * Runs of hidden characters in a field, one finding per run, named after the worst kind in it.
 * A run of tag characters shows the text it spells. Benign single characters (emoji joiners and
 * the like) are skipped; a long run is raised to high whatever its kind.
 */
export function scanHiddenText(field: TextField): PoisonFinding[] {
  const findings: PoisonFinding[] = [];
  const text = field.text;
  let runStart = -1;
  let runKinds = new Set<HiddenKind>();
  let runChars = 0;
  let excerpt = '';
  const close = (end: number): void => {
    if (runStart < 0) return;
    const kind: HiddenKind = runKinds.has('tag')
      ? 'tag'
      : runKinds.has('bidi')
        ? 'bidi'
        : runKinds.has('zeroWidth')
          ? 'zeroWidth'
          : 'ignorable';
    const code = KIND_CODE[kind];
    const finding = poisonFinding(code, field.path, { start: runStart, end }, excerpt.slice(0, 200));
    findings.push(runChars >= PAYLOAD_RUN && finding.severity !== 'high' ? { ...finding, severity: 'high' } : finding);
    runStart = -1;
    runKinds = new Set();
    runChars = 0;
    excerpt = '';
  };
  for (let index = 0; index < text.length; index += 1) {
    const code = text.codePointAt(index) ?? 0;
    const width = code > 0xffff ? 2 : 1;
    const kind = hiddenKind(code);
    if (kind === undefined) {
      close(index);
    } else {
      const before = previousChar(text, index);
      const after = String.fromCodePoint(text.codePointAt(index + width) ?? 0x20);
      const benign = runStart < 0 && kind !== 'tag' && kind !== 'bidi' && isBenign(code, before, after, index);
      if (benign) close(index);
      else {
        if (runStart < 0) runStart = index;
        runKinds.add(kind);
        runChars += 1;
        if (excerpt.length < 400) excerpt += visible(code);
      }
    }
    index += width - 1;
  }
  close(text.length);
  return findings;
}

/** Text with every hidden character shown as `<U+XXXX>` (tag characters as what they spell), cut at 200. */
export function visibleText(text: string): string {
  let out = '';
  for (const char of text) {
    if (out.length >= 200) return `${out}…`;
    const code = char.codePointAt(0) ?? 0;
    out += hiddenKind(code) === undefined ? char : visible(code);
  }
  return out;
}
