/** The outcome of reading a "one or many strings" argument. */
export type ListArgument = { ok: true; items: string[] } | { ok: false; reason: 'missing' | 'empty' };

/**
 * Reads a bridge argument that takes one string or a list of strings: a bare string is a list of
 * one; list items are stringified and trimmed; null, false, 0 and blank items are dropped.
 */
export function readStringList(value: unknown): ListArgument {
  if (typeof value === 'string')
    return value.trim() === '' ? { ok: false, reason: 'empty' } : { ok: true, items: [value.trim()] };
  if (!Array.isArray(value)) return { ok: false, reason: 'missing' };
  const items = value
    .filter((item) => item !== null && item !== undefined && item !== false && item !== 0)
    .map((item) => (typeof item === 'string' ? item : JSON.stringify(item)).trim())
    .filter((item) => item !== '');
  return items.length === 0 ? { ok: false, reason: 'empty' } : { ok: true, items };
}

/** Parses a bridge call's arguments: an object, a JSON string of one, or blank/absent (= {}). */
export function readArgumentsObject(value: unknown): Record<string, unknown> | undefined {
  if (value === undefined || value === null) return {};
  if (typeof value === 'string') {
    if (value.trim() === '') return {};
    try {
      return readArgumentsObject(JSON.parse(value));
    } catch {
      return undefined;
    }
  }
  return typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
