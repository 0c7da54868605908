import type { EvalQuery } from './query-file';

/** Which side of the split a query falls on. */
export type QuerySplitPart = 'tuning' | 'test';

/**
 * The one split of every distributed query file, fixed once (issue 21) and never re-drawn: in
 * file order, every fifth query (position % 5 === 4, counting from 0) is the frozen test part,
 * the rest the tuning part. Rules, learned tables and knobs are fitted on the tuning part only;
 * a change that helps tuning and not test is dropped. Committed as a rule, not as data: the
 * query files stay in `../shared/data`.
 */
export const QUERY_SPLIT = { every: 5, testRemainder: 4 } as const;

/** The split part of the query at `position` (0-based line order among the file's queries). */
export function splitPartOf(position: number): QuerySplitPart {
  return position % QUERY_SPLIT.every === QUERY_SPLIT.testRemainder ? 'test' : 'tuning';
}

/** A query file's queries divided by `splitPartOf`, order kept. */
export function splitQueries<T = EvalQuery>(queries: readonly T[]): Record<QuerySplitPart, T[]> {
  const parts: Record<QuerySplitPart, T[]> = { tuning: [], test: [] };
  queries.forEach((query, position) => parts[splitPartOf(position)].push(query));
  return parts;
}
