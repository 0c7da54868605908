import { stem } from './analyzer';

/**
 * What a request implies without saying it, read from the shape of what it carries rather than
 * from its words: a file path, an e-mail address, a pair of coordinates. Every pattern here is
 * linear on any input (no nested or overlapping repetition; each repetition is bounded or stops
 * at a character the next part cannot start with), and the query builder gives it at most
 * `MAX_QUERY_CHARS` of the request.
 */

// A file path in a request: absolute or home-relative, ending in a file name with an extension.
const FILE_PATH = /(?:^|[\s"'(])(?:~|\.{0,2})\/[^\s"')]*\.[A-Za-z0-9]{1,8}(?=$|[\s"'),.;:!?])/;
// Verbs that put something into a file rather than take it out.
const OUTPUT_VERBS =
  /\b(?:save[sd]?|saving|write|writes|writing|wrote|store[sd]?|export(?:s|ed)?|output|draft|record)\b/i;

/**
 * Terms a request implies without saying them. A request that names a file path needs a tool that
 * works on files even when it never says "file"; when it also says to save, write or export, it
 * needs one that writes ("save the report to /root/notes/x.md"). Returned as index terms.
 */
export function impliedQueryTerms(query: string): string[] {
  // A path has a slash: most requests are ruled out without running the pattern over them.
  if (!query.includes('/') || !FILE_PATH.test(query)) return [];
  return OUTPUT_VERBS.test(query) ? [stem('file'), stem('write')] : [stem('file')];
}

/** A kind of value a request may carry, and the parameter words of the tools that take it. */
interface ValueKind {
  readonly kind: string;
  readonly pattern: RegExp;
  readonly parameters: readonly string[];
}

const VALUE_KINDS: readonly ValueKind[] = [
  { kind: 'an e-mail address', pattern: /[\w.+-]@[\w-]{1,63}\.[a-z]{2,24}\b/i, parameters: ['email'] },
  { kind: 'a web address', pattern: /\b(?:https?:\/\/|www\.)[\w-]/i, parameters: ['url'] },
  {
    kind: 'coordinates',
    pattern: /(?:^|[^\d.])-?\d{1,3}\.\d{2,9}\s?,\s?-?\d{1,3}\.\d{2,9}\b/,
    parameters: ['latitude', 'longitude'],
  },
  {
    kind: 'an amount of money',
    pattern: /[$€£¥₹]\s?\d|\b\d{1,12}(?:[.,]\d{1,3})?\s?(?:usd|eur|gbp|jpy|cny|inr|dollars?|euros?|pounds?|yen)\b/i,
    parameters: ['currency', 'amount'],
  },
  { kind: 'an IP address', pattern: /\b\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}\b/, parameters: ['ip'] },
  { kind: 'a date', pattern: /\b\d{4}-\d{2}-\d{2}\b/, parameters: ['date'] },
  { kind: 'a time of day', pattern: /\b\d{1,2}:\d{2}\s?(?:am|pm)?\b/i, parameters: ['time'] },
  { kind: 'a phone number', pattern: /\+\d{1,3}[\s-]?\(?\d{1,4}\)?[\s-]?\d{2,4}[\s-]?\d{2,4}/, parameters: ['phone'] },
];

/** A parameter word a request's value implies, as an index term, with the kind of value it saw. */
export interface ValueHint {
  readonly term: string;
  readonly kind: string;
}

/**
 * The parameter words the values in a request imply ("send this to ana@example.com" → `email`;
 * "250 euros" → `currency`, `amount`): a tool that takes such a value names the parameter, and
 * the index reads parameter names. The request's own words still decide; these are hints.
 */
export function valueHints(query: string): ValueHint[] {
  const hints: ValueHint[] = [];
  // Every kind needs a digit, an @ or a dot: plain word requests skip the patterns.
  if (!/[\d@.]/.test(query)) return hints;
  for (const { kind, pattern, parameters } of VALUE_KINDS) {
    if (!pattern.test(query)) continue;
    for (const parameter of parameters) hints.push({ term: stem(parameter), kind });
  }
  return hints;
}
