import { isHiddenCode } from './hidden-text';
import { SCAN_LIMITS } from './text-fields';

/**
 * Scratch buffers reused by every call: allocating two typed arrays per field cost more than the
 * rest of the scan. The result is therefore valid only until the next call (the scanner uses
 * each field's result before normalising the next field). Fields are at most
 * `SCAN_LIMITS.fieldChars` long; a longer input grows the buffers.
 */
let scratchCodes = new Uint16Array(SCAN_LIMITS.fieldChars);
let scratchOffsets = new Int32Array(SCAN_LIMITS.fieldChars);

/** A field's text prepared for phrase matching, with each code unit's offset in the original. */
export interface NormalizedText {
  /** Folded UTF-16 code units (the first `length` are used). */
  readonly codes: Uint16Array;
  /** `offsets[i]` is the original index of `codes[i]`. */
  readonly offsets: Int32Array;
  readonly length: number;
  /** Hidden characters dropped (when 0, the hidden-text scan can be skipped). */
  readonly hidden: number;
  /** The longest run of white space in the original, in characters. */
  readonly longestBlank: number;
  /** The most line breaks in one run of white space. */
  readonly mostNewlines: number;
}

function isSpace(code: number): boolean {
  return code === 0x20 || (code >= 0x09 && code <= 0x0d) || code === 0xa0 || code === 0x3000 || code === 0x2028;
}

/** Lower case of one BMP code unit, when it stays one code unit (so offsets map back). */
function fold(code: number): number {
  if (code < 0x80) return code >= 0x41 && code <= 0x5a ? code + 32 : code;
  if (code >= 0xff01 && code <= 0xff5e) return fold(code - 0xfee0);
  if (code === 0x2018 || code === 0x2019) return 0x27;
  // Only these blocks have case (Latin, Greek, Cyrillic, Armenian and their extensions); the
  // rest, CJK above all, is returned without building a string.
  const cased =
    code < 0x0590 ||
    (code >= 0x1e00 && code < 0x2000) ||
    (code >= 0x2c00 && code < 0x2e00) ||
    (code >= 0xa640 && code < 0xa800);
  if (!cased) return code;
  const lower = String.fromCharCode(code).toLowerCase();
  return lower.length === 1 ? lower.charCodeAt(0) : code;
}

/**
 * Folds text so phrase lists match it directly: lower case, full-width ASCII to ASCII, curly
 * apostrophes to straight ones, every run of white space to one space, and hidden characters
 * dropped, so `ig\u200Bnore` still reads `ignore`. One pass into typed arrays, linear in the text.
 * Valid until the next call (shared buffers).
 */
export function normalizeForMatching(source: string): NormalizedText {
  if (source.length > scratchCodes.length) {
    scratchCodes = new Uint16Array(source.length);
    scratchOffsets = new Int32Array(source.length);
  }
  const codes = scratchCodes;
  const offsets = scratchOffsets;
  let length = 0;
  let lastWasSpace = true;
  let hidden = 0;
  let blankStart = -1;
  let newlines = 0;
  let longestBlank = 0;
  let mostNewlines = 0;
  for (let index = 0; index < source.length; index += 1) {
    const code = source.charCodeAt(index);
    if (code === 0x20 || code === 0x0a || code === 0x09 || code === 0x0d || code === 0xa0 || code === 0x3000) {
      if (blankStart < 0) blankStart = index;
      if (code === 0x0a) newlines += 1;
      if (index - blankStart >= longestBlank) longestBlank = index - blankStart + 1;
      if (newlines > mostNewlines) mostNewlines = newlines;
    } else {
      blankStart = -1;
      newlines = 0;
    }
    if (code >= 0xd800 && code <= 0xdbff && index + 1 < source.length) {
      const full = source.codePointAt(index) ?? code;
      if (isHiddenCode(full)) {
        hidden += 1;
        // Tag characters spell ASCII: matched as what they spell, so hidden orders are read too.
        if (full >= 0xe0020 && full <= 0xe007e) {
          codes[length] = fold(full - 0xe0000);
          offsets[length++] = index;
        }
        index += 1;
        continue;
      }
      codes[length] = code;
      offsets[length++] = index;
      codes[length] = source.charCodeAt(index + 1);
      offsets[length++] = index + 1;
      index += 1;
      lastWasSpace = false;
    } else if (code >= 0xad && isHiddenCode(code)) {
      hidden += 1;
    } else if (isSpace(code)) {
      if (!lastWasSpace) {
        codes[length] = 0x20;
        offsets[length++] = index;
      }
      lastWasSpace = true;
    } else {
      lastWasSpace = false;
      codes[length] = fold(code);
      offsets[length++] = index;
    }
  }
  return { codes, offsets, length, hidden, longestBlank, mostNewlines };
}
