/** The longest short description a listing line carries, before the ellipsis. */
export const SHORT_DESCRIPTION_CHARS = 60;

// Abbreviations whose period does not end a sentence.
const ABBREVIATION_END = /(?:^|[\s(])(?:e\.g|i\.e|etc)$/i;

// Half of a surrogate pair without its other half: not text, and not encodable as UTF-8.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * Makes text safe for one listing line: no control characters, no line breaks, no lone
 * surrogates (each becomes U+FFFD), single spaces.
 */
export function singleLine(text: string): string {
  return (
    text
      .replace(LONE_SURROGATE, '\ufffd')
      // eslint-disable-next-line no-control-regex -- removing control characters is the point
      .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
  );
}

/** Raw characters read from a long description; the normalised result needs far fewer. */
const LEADING_CHARS = 400;

/**
 * `singleLine(description)`, or a prefix of it long enough for every decision below (a sentence
 * end within the first 61 characters, and the character after it). Descriptions can run to tens of
 * kilobytes and a listing may look at thousands of them.
 */
function leadingText(description: string): string {
  if (description.length <= LEADING_CHARS) return singleLine(description);
  const lead = singleLine(description.slice(0, LEADING_CHARS));
  return lead.length > SHORT_DESCRIPTION_CHARS + 8 ? lead : singleLine(description);
}

/**
 * The first sentence of a description, at most 60 characters: whitespace collapsed, cut at the
 * first `.`, `!` or `?` that is followed by a space or the end (not the period of `e.g.`, `i.e.`
 * or `etc.`), and when still too long, cut back to a word boundary with `…` appended.
 */
export function shortDescription(description: string): string {
  const text = leadingText(description);
  let sentence = text;
  const ends = /[.!?](?=\s|$)|[。！？]/g;
  for (let match = ends.exec(text); match !== null; match = ends.exec(text)) {
    const before = text.slice(0, match.index);
    if (match[0] === '.' && ABBREVIATION_END.test(before)) continue;
    sentence = text.slice(0, match.index + 1);
    break;
  }
  if (sentence.length <= SHORT_DESCRIPTION_CHARS) return sentence;
  let cut = sentence.slice(0, SHORT_DESCRIPTION_CHARS);
  // Never split a surrogate pair (an emoji at the cut).
  if (/[\ud800-\udbff]$/.test(cut)) cut = cut.slice(0, -1);
  const space = cut.lastIndexOf(' ');
  if (space > 0) cut = cut.slice(0, space);
  return `${cut.replace(/[\s,;:]+$/, '')}…`;
}
