/**
 * The context check of doubtful answers (`src/context-check.ts`) on the 6,685-tool union and the
 * public queries: how many queries run it (their confidence is under the model's `context.below`)
 * and what one check costs (five rounds over every query, limit 5).
 * `npx tsx libs/search/bench/context-check.bench.ts`.
 */
import { SearchEngine } from '../src/search-engine';
import { publicQueries, unionDocuments } from './union-data';

const engine = new SearchEngine(unionDocuments());
const queries = publicQueries();
let checked = 0;
let withheld = 0;
for (const query of queries) {
  const answer = engine.answer(query, 5);
  if (answer.contextSupport === undefined) continue;
  checked += 1;
  if (answer.hits.length === 0) withheld += 1;
}
const times: number[] = [];
for (let round = 0; round < 5; round += 1)
  for (const query of queries) {
    const hits = engine.search(query, 5);
    const terms = engine.queryTerms(query);
    const started = performance.now();
    engine.contextSupportOf(terms, hits);
    times.push(performance.now() - started);
  }
times.sort((a, b) => a - b);
const at = (share: number) => (times[Math.min(times.length - 1, Math.floor(times.length * share))] ?? 0).toFixed(3);
console.log(
  `${queries.length} public queries: ${checked} run the context check, ${withheld} withheld by it; one check p50 ${at(0.5)} ms, p99 ${at(0.99)} ms`,
);
