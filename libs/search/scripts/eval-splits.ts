/**
 * One table for tuning: R@5 / hit@5 on the tuning and frozen test parts of both distributed query
 * sets, abstention on the project's own no-capability requests (6,685-tool union), with the
 * learned expansion on and off. `npx tsx libs/search/scripts/eval-splits.ts [data dir]`.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSessionTools, defaultToolSearchConfig, parseCatalogFiles } from '@toolsearch/catalog';
import { evaluate } from '../src/eval-metrics';
import type { EvalQuery } from '../src/query-file';
import { parseQueryFile } from '../src/query-file';
import { splitQueries } from '../src/query-split';
import { DEFAULT_RANKING, type RankingOptions } from '../src/ranking-options';
import { SearchEngine } from '../src/search-engine';
import { toSearchDocument } from '../src/search-document';

const here = dirname(fileURLToPath(import.meta.url));
const dataDir = resolve(process.argv[2] ?? resolve(here, '../../../../shared/data'));

function load(catalogs: string[]) {
  const parsed = parseCatalogFiles(
    catalogs.map((file) => ({ source: file, text: readFileSync(resolve(dataDir, file), 'utf8') })),
  );
  if (!parsed.ok) throw new Error(parsed.error.message);
  const tools = buildSessionTools(parsed.toolsets, defaultToolSearchConfig()).deferred;
  return {
    documents: tools.map((tool) => toSearchDocument(tool)),
    ids: tools.map((t) => `${t.label}::${t.originalName}`),
  };
}
function queries(path: string): EvalQuery[] {
  const parsed = parseQueryFile(readFileSync(path, 'utf8'));
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.queries;
}

const sets = [
  {
    name: 'StableToolBench',
    catalogs: ['catalog-stabletoolbench.jsonl'],
    file: resolve(dataDir, 'queries-stabletoolbench.jsonl'),
  },
  {
    name: 'LiveMCPBench',
    catalogs: ['catalog-livemcpbench.jsonl'],
    file: resolve(dataDir, 'queries-livemcpbench.jsonl'),
  },
  {
    name: 'abstention (union)',
    catalogs: ['catalog-github-mcp-server.jsonl', 'catalog-livemcpbench.jsonl', 'catalog-toucan-smithery.jsonl'],
    file: resolve(here, '../eval/abstention-queries.jsonl'),
  },
];
const variants: Record<string, Partial<RankingOptions>> = {
  before: { expand: false, correctTypos: false, weighTerms: false, abstain: false },
  'no abstain': { abstain: false },
  'weights only': { expand: false },
  'expansion only': { weighTerms: false },
  current: {},
};
// Tuning aid: `SCALES=0.3,0.6` adds a variant per association scale.
for (const scale of (process.env['SCALES'] ?? '').split(',').filter(Boolean))
  variants[`scale ${scale}`] = { expansionScale: Number(scale) };
for (const set of sets) {
  const { documents, ids } = load(set.catalogs);
  const parts = splitQueries(queries(set.file));
  for (const [variant, overrides] of Object.entries(variants)) {
    const engine = new SearchEngine(documents, { ...DEFAULT_RANKING, ...overrides });
    const cells = (['tuning', 'test'] as const).map((part) => {
      const report = evaluate(
        parts[part].map((q) => ({ ranked: engine.search(q.query, 10).map((h) => ids[h.index] ?? ''), gold: q.gold })),
        [5],
      );
      return report.abstain_accuracy !== null
        ? `${part} abstain ${report.abstain_accuracy.toFixed(3)} (${report.abstain_queries})`
        : `${part} R@5 ${(report.recall['5'] ?? 0).toFixed(3)} hit@5 ${report.hit5.toFixed(3)} (${report.queries})`;
    });
    console.log(`${set.name.padEnd(20)} ${variant.padEnd(14)} ${cells.join('   ')}`);
  }
}
