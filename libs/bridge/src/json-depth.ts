/**
 * How deep JSON from a tenant or a model may nest, unless the daemon configures another bound.
 * Real tool schemas and arguments stay well under 20 levels; every recursive walker downstream
 * (schema normalisation, canonical JSON, `JSON.stringify`, `structuredClone`) overflows the stack
 * somewhere past a few thousand, which a 1 MiB payload reaches easily (`[[[[…`).
 */
export const MAX_JSON_DEPTH = 64;

const OPEN_BRACKET = 0x5b;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACKET = 0x5d;
const CLOSE_BRACE = 0x7d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * True when no array or object in the JSON text nests deeper than `max` levels (a top-level
 * `{}` is depth 1). One linear pass over the raw text or its UTF-8 bytes, counting `[`/`{` outside
 * strings and honouring escapes, so it runs before anything parses or walks the value. It judges
 * nesting only: malformed JSON within the bound passes here and fails at the parser.
 */
export function jsonDepthWithin(text: string | Uint8Array, max: number): boolean {
  // UTF-8 continuation bytes are all >= 0x80, so scanning bytes and scanning UTF-16 units agree.
  const at: (index: number) => number =
    typeof text === 'string' ? (index) => text.charCodeAt(index) : (index) => text[index] as number;
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = at(index);
    if (inString) {
      if (code === BACKSLASH) index += 1;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) inString = true;
    else if (code === OPEN_BRACKET || code === OPEN_BRACE) {
      depth += 1;
      if (depth > max) return false;
    } else if (code === CLOSE_BRACKET || code === CLOSE_BRACE) depth -= 1;
  }
  return true;
}

/**
 * True when no array or object in an already-built value nests deeper than `max` levels. Iterative
 * (an explicit stack), so a value too deep for the recursive walkers is measured without
 * overflowing; it stops at the first container past the bound.
 */
export function valueDepthWithin(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [node, depth] = next;
    if (typeof node !== 'object' || node === null) continue;
    if (depth + 1 > max) return false;
    for (const child of Array.isArray(node) ? node : Object.values(node)) stack.push([child, depth + 1]);
  }
  return true;
}

/** JSON text parsed within a depth bound: the value, or why it was refused (a parse error or the bound). */
export function parseJsonWithin(
  text: string,
  max: number,
): { ok: true; value: unknown } | { ok: false; message: string } {
  if (!jsonDepthWithin(text, max)) return { ok: false, message: `it nests deeper than ${max} levels` };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  }
}
