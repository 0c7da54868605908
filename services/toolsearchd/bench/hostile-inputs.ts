/**
 * The hostile tenant inputs of the noisy-neighbour attacks (`noisy-attacks.ts`, scenario
 * `patterns`): routing `when` patterns that backtrack in a backtracking engine, the largest session
 * config of them the daemon accepts, and queries built to make such patterns slow.
 */
import { BACKTRACKING_QUERIES, backtrackingRouting } from '@toolsearch/testing';

const manyStars = (last: string, stars = 20) => `${'*a'.repeat(stars)}*${last}`;

/**
 * The most a session config may hold: 100 routing rules (32 with a hostile `when`, the rest
 * applying to every query), each with 100 many-star tool patterns; the grant allows by
 * many-star globs over 60-character names.
 */
export function hostileSession(model: { contextLength: number }) {
  const tools = Array.from({ length: 100 }, (_, i) => manyStars(String.fromCharCode(98 + (i % 24)), 12 + (i % 8)));
  const routing = backtrackingRouting(tools);
  return {
    grant: { toolsets: ['long', 'docs'], allow: [...tools.slice(0, 20), 'search_*', 'read_*'] },
    model,
    config: { enabled: 'on', routing },
  };
}
/** Queries built to make the hostile patterns slow. */
export const HOSTILE_QUERIES = BACKTRACKING_QUERIES;
