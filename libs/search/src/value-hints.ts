import { stem } from './analyzer';

/**
 * Values a request carries say which parameters the tool it needs takes: an e-mail address needs
 * a tool with an `email` parameter, a pair of coordinates one that takes a latitude and longitude.
 * Each pattern is linear (no nested or overlapping repetition) and runs over at most the first
 * `MAX_QUERY_CHARS` of the request.
 */
interface ValueKind {
  readonly kind: string;
  readonly pattern: RegExp;
  readonly terms: readonly string[];
}

const VALUE_KINDS: readonly ValueKind[] = [
  { kind: 'email', pattern: /[\w.+-]@[\w-]{1,63}\.[a-z]{2,24}\b/i, terms: ['email'] },
  { kind: 'url', pattern: /\b(?:https?:\/\/|www\.)[\w-]/i, terms: ['url'] },
  { kind: 'coordinates', pattern: /-?\b\d{1,3}\.\d{2,9}\s?,\s?-?\d{1,3}\.\d{2,9}\b/, terms: ['latitude', 'longitude'] },
  {
    kind: 'money',
    pattern: /[$€£¥₹]\s?\d|\b\d{1,12}(?:[.,]\d{1,3})?\s?(?:usd|eur|gbp|jpy|cny|inr|dollars?|euros?|pounds?|yen)\b/i,
    terms: ['currency', 'amount'],
  },
  { kind: 'ip', pattern: /\b\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}\b/, terms: ['ip'] },
  { kind: 'date', pattern: /\b\d{4}-\d{2}-\d{2}\b/, terms: ['date'] },
  { kind: 'time', pattern: /\b\d{1,2}:\d{2}\s?(?:am|pm)?\b/i, terms: ['time'] },
  { kind: 'phone', pattern: /\+\d{1,3}[\s-]?\(?\d{1,4}\)?[\s-]?\d{2,4}[\s-]?\d{2,4}/, terms: ['phone'] },
];

/** The parameter words the values in a request imply, as index terms. */
export function valueHintTerms(text: string): string[] {
  const found: string[] = [];
  for (const { pattern, terms } of VALUE_KINDS) {
    if (!pattern.test(text)) continue;
    for (const term of terms) found.push(stem(term));
  }
  return found;
}
