/**
 * Query cost per issue-21 feature on a noisy machine: every public query runs five times on each
 * variant and keeps its fastest time (what is left when other processes did not preempt it), then
 * p50 / p99 / max over the queries. The 6,685-tool union, limit 5.
 * `npx tsx libs/search/bench/features-min.bench.ts`.
 */
import { DEFAULT_RANKING, type RankingOptions } from '../src/ranking-options';
import { SearchEngine } from '../src/search-engine';
import { publicQueries, unionDocuments } from './union-data';

const documents = unionDocuments();
const queries = publicQueries();
const variants: Record<string, Partial<RankingOptions>> = {
  'all on': {},
  'all off': { correctTypos: false, expand: false, abstain: false, weighTerms: false },
  'no typos': { correctTypos: false },
  'no expansion': { expand: false },
  'no abstention': { abstain: false },
  'no term weights': { weighTerms: false },
};
const at = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
for (const [name, overrides] of Object.entries(variants)) {
  const engine = new SearchEngine(documents, { ...DEFAULT_RANKING, ...overrides });
  for (const query of queries) engine.search(query, 5);
  const fastest = queries
    .map((query) => {
      let best = Number.POSITIVE_INFINITY;
      for (let run = 0; run < 5; run += 1) {
        const started = performance.now();
        engine.search(query, 5);
        best = Math.min(best, performance.now() - started);
      }
      return best;
    })
    .sort((a, b) => a - b);
  console.log(
    `${name.padEnd(16)} p50 ${at(fastest, 0.5).toFixed(3)} ms  p99 ${at(fastest, 0.99).toFixed(3)} ms  max ${at(fastest, 1).toFixed(3)} ms`,
  );
}
