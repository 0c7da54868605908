/**
 * Wildcard patterns for tool names (grants, policies, routing rules, approval filters): `*`
 * matches any run of characters, the empty run included, and every other character stands for
 * itself. Tenants write these patterns, so they are never turned into regular expressions: a
 * backtracking engine needs seconds to reject `*a*a*a*a*a*a*b` against a 60-character name, and
 * the daemon's one thread would serve nobody meanwhile.
 *
 * A pattern is compiled into its literal pieces. The text must start with the first piece and end
 * with the last; each piece in between is found at its leftmost place after the one before it.
 * Leftmost is always safe (a piece placed earlier leaves more room for the rest), so there is no
 * backtracking: a match costs one `indexOf` per piece, at worst O(text × pattern).
 */

/** How a glob compares characters. */
export interface GlobOptions {
  /** Compare after lower-casing both the pattern and the text. Default: exact comparison. */
  readonly caseInsensitive?: boolean;
}

/** A compiled wildcard pattern; compile once and test many texts. */
export interface Glob {
  /** The pattern as written. */
  readonly pattern: string;
  /** Whether the whole of `text` matches the pattern. */
  matches(text: string): boolean;
}

/** Compiles a wildcard pattern (`*` = any run of characters, everything else literal). */
export function compileGlob(pattern: string, options: GlobOptions = {}): Glob {
  const fold = options.caseInsensitive === true ? (text: string) => text.toLowerCase() : (text: string) => text;
  const pieces = fold(pattern).split('*');
  if (pieces.length === 1) {
    const literal = pieces[0] ?? '';
    return { pattern, matches: (text) => fold(text) === literal };
  }
  const head = pieces[0] ?? '';
  const tail = pieces[pieces.length - 1] ?? '';
  const middle = pieces.slice(1, -1).filter((piece) => piece !== '');
  const shortest = head.length + tail.length + middle.reduce((sum, piece) => sum + piece.length, 0);
  return {
    pattern,
    matches(raw) {
      const text = fold(raw);
      if (text.length < shortest || !text.startsWith(head) || !text.endsWith(tail)) return false;
      const end = text.length - tail.length;
      let from = head.length;
      for (const piece of middle) {
        const at = text.indexOf(piece, from);
        if (at < 0 || at + piece.length > end) return false;
        from = at + piece.length;
      }
      return true;
    },
  };
}

/** Whether the whole of `text` matches a wildcard pattern (compiles it; keep a {@link Glob} to reuse). */
export function globMatches(pattern: string, text: string, options: GlobOptions = {}): boolean {
  return compileGlob(pattern, options).matches(text);
}
