/**
 * Inputs a hostile tenant could send to make a backtracking regular-expression engine spin: the
 * routing `when` patterns of a session config and the requests that make them slow. Shared by the
 * benchmarks that measure what such a config costs (the bridge's routing, the daemon's noisy
 * neighbour); the matcher is linear-time, so these must cost no more than plain ones.
 */

/** Patterns that backtrack for seconds in a backtracking engine (the old routing `when`). */
export const BACKTRACKING_PATTERNS: readonly string[] = [
  '^(a+)+$',
  '(a|aa)+$',
  '(a*)*b',
  '(.*a){12}!',
  '^(([a-z])+.)+[A-Z]([a-z])+$',
  '(\\w+\\s?)+$',
  '(x+x+)+y',
  '([a-zA-Z]+)*!',
];

/** Requests built to make those patterns slow (a long run, then a character that fails the match). */
export const BACKTRACKING_QUERIES: readonly string[] = [
  `${'a'.repeat(199)}!`,
  `${'A'.repeat(120)}b`,
  'x'.repeat(150),
  `${'ab '.repeat(60)}!`,
  `${'a'.repeat(40)}!`,
];

/**
 * The most routing a session config may hold: 100 rules, each with `tools`; the first 32 with a
 * backtracking `when` (each pattern again with up to three more optional marks), pinned; the rest
 * boosting on every query.
 */
export function backtrackingRouting(
  tools: readonly string[],
): ({ when: string; tools: string[]; pin: true } | { tools: string[]; boost: number })[] {
  return Array.from({ length: 100 }, (_, i) =>
    i < 32
      ? {
          when: `${BACKTRACKING_PATTERNS[i % BACKTRACKING_PATTERNS.length]}${'?'.repeat(Math.floor(i / 8))}`,
          tools: [...tools],
          pin: true as const,
        }
      : { tools: [...tools], boost: 2 },
  );
}
