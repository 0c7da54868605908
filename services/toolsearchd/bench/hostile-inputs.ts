/**
 * The hostile tenant inputs of the noisy-neighbour attacks (`noisy-attacks.ts`, scenario
 * `patterns`): routing `when` patterns that backtrack in a backtracking engine, the largest session
 * config of them the daemon accepts, and queries built to make such patterns slow.
 */
/** Patterns that backtrack for seconds in a backtracking engine (the old routing `when`). */
export const HOSTILE_WHENS = [
  '^(a+)+$',
  '(a|aa)+$',
  '(a*)*b',
  '(.*a){12}!',
  '^(([a-z])+.)+[A-Z]([a-z])+$',
  '(\\w+\\s?)+$',
  '(x+x+)+y',
  '([a-zA-Z]+)*!',
];
const manyStars = (last: string, stars = 20) => `${'*a'.repeat(stars)}*${last}`;

/**
 * The most a session config may hold: 100 routing rules (32 with a hostile `when`, the rest
 * applying to every query), each with 100 many-star tool patterns; the grant allows by
 * many-star globs over 60-character names.
 */
export function hostileSession(model: { contextLength: number }) {
  const tools = Array.from({ length: 100 }, (_, i) => manyStars(String.fromCharCode(98 + (i % 24)), 12 + (i % 8)));
  const routing = Array.from({ length: 100 }, (_, i) =>
    i < 32
      ? { when: `${HOSTILE_WHENS[i % HOSTILE_WHENS.length]}${'?'.repeat(Math.floor(i / 8))}`, tools, pin: true }
      : { tools, boost: 2 },
  );
  return {
    grant: { toolsets: ['long', 'docs'], allow: [...tools.slice(0, 20), 'search_*', 'read_*'] },
    model,
    config: { enabled: 'on', routing },
  };
}
export const HOSTILE_QUERIES = [
  `${'a'.repeat(199)}!`,
  `${'A'.repeat(120)}b`,
  `${'x'.repeat(150)}`,
  `${'ab '.repeat(60)}!`,
  `${'a'.repeat(40)}!`,
];
