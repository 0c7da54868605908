/**
 * Query cost per issue-21 feature on a noisy machine: every public query runs five times on each
 * variant and keeps its fastest time (what is left when other processes did not preempt it), then
 * p50 / p99 / max over the queries. The 6,685-tool union, limit 5.
 * `npx tsx libs/search/bench/features-min.bench.ts`.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildSessionTools, defaultToolSearchConfig, parseCatalogFiles } from '@toolsearch/catalog';
import { parseQueryFile } from '../src/query-file';
import { DEFAULT_RANKING, type RankingOptions } from '../src/ranking-options';
import { toSearchDocument } from '../src/search-document';
import { SearchEngine } from '../src/search-engine';

const data = resolve(process.env['TOOLSEARCH_DATA_DIR'] ?? resolve(import.meta.dirname, '../../../../shared/data'));
const catalogs = ['catalog-github-mcp-server.jsonl', 'catalog-livemcpbench.jsonl', 'catalog-toucan-smithery.jsonl'];
const parsed = parseCatalogFiles(
  catalogs.map((file) => ({ source: file, text: readFileSync(resolve(data, file), 'utf8') })),
);
if (!parsed.ok) throw new Error(parsed.error.message);
const documents = buildSessionTools(parsed.toolsets, defaultToolSearchConfig()).deferred.map((tool) =>
  toSearchDocument(tool),
);
const queries = ['queries-livemcpbench.jsonl', 'queries-stabletoolbench.jsonl'].flatMap((file) => {
  const result = parseQueryFile(readFileSync(resolve(data, file), 'utf8'));
  return result.ok ? result.queries.map((q) => q.query) : [];
});
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
