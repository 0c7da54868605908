import { buildSessionTools, defaultToolSearchConfig, type SessionTool } from '@toolsearch/catalog';
import {
  DEFAULT_RANKING,
  ElasticlunrBaseline,
  evaluate,
  SearchEngine,
  splitQueries,
  toSearchDocument,
  type EvalQuery,
  type EvalReport,
} from '@toolsearch/search';
import { CliError } from '../cli-error';
import { loadQueries } from '../eval-input';
import { loadCatalogs } from '../inputs';
import { CATALOG_OPTION, JSON_OPTION, parseCommandArgs } from '../command-args';
import type { CliIo } from '../io';
import type { Command } from '../command';

const USAGE = `Usage: toolsearch eval --catalog FILE... --queries Q.jsonl [--k 1,5,10] [--json]

Measures retrieval on a query file (the shared-data format: query + gold_ids) against the catalogs,
for toolsearch and for plain elasticlunr (its default pipeline and scoring) as the baseline:
recall@k, hit@5, MRR, nDCG@10, empty-result rate, and abstention accuracy on queries without gold.
Each is reported for the whole file and for its two fixed parts side by side: the tuning part
(rules and learned tables are fitted on it) and the frozen test part (every fifth query, never
tuned on; see docs/search.md).

Tuning (toolsearch only): --min-coverage R (share of the query's IDF mass a tool must match),
--name-bonus R (reward for tools whose name words appear in the query).`;

/** The catalog of every tool in the files (all deferred MCP tools) and its `server::name` ids. */
export function catalogOf(paths: readonly string[]): { tools: readonly SessionTool[]; ids: string[] } {
  const { toolsets } = loadCatalogs(paths);
  const table = buildSessionTools(toolsets, defaultToolSearchConfig());
  return { tools: table.deferred, ids: table.deferred.map((tool) => `${tool.label}::${tool.originalName}`) };
}

function parseKs(value: string | undefined): number[] {
  if (value === undefined) return [1, 5, 10];
  const ks = value.split(',').map((part) => Number(part.trim()));
  if (ks.some((k) => !Number.isInteger(k) || k < 1 || k > 100)) {
    throw new CliError(`--k must be whole numbers from 1 to 100 separated by commas, not ${JSON.stringify(value)}.`);
  }
  return ks;
}

function readRatio(option: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isFinite(number) || number < 0 || number > 10)
    throw new CliError(`${option} must be a number from 0 to 10.`);
  return number;
}

function line(name: string, report: EvalReport): string {
  const recall = Object.entries(report.recall)
    .map(([k, value]) => `R@${k} ${value.toFixed(3)}`)
    .join('  ');
  const abstain = report.abstain_accuracy === null ? 'n/a' : report.abstain_accuracy.toFixed(3);
  return `${name.padEnd(18)} ${recall}  hit@5 ${report.hit5.toFixed(3)}  MRR ${report.mrr.toFixed(3)}  nDCG@10 ${report.ndcg10.toFixed(3)}  empty ${report.empty_rate.toFixed(3)}  abstain ${abstain}`;
}

export const evalCommand: Command = {
  summary: 'measure retrieval quality on a query file (recall@k, MRR, nDCG, abstention)',
  usage: USAGE,
  run(args: string[], io: CliIo): number {
    const { values, positionals } = parseCommandArgs(args, {
      ...CATALOG_OPTION,
      ...JSON_OPTION,
      queries: { type: 'string' },
      k: { type: 'string' },
      'min-coverage': { type: 'string' },
      'name-bonus': { type: 'string' },
    });
    if (values.queries === undefined)
      throw new CliError('--queries is required: a JSON Lines file of queries with gold_ids.');
    const ks = parseKs(values.k);
    const depth = Math.max(10, ...ks);
    const { tools, ids } = catalogOf([...(values.catalog ?? []), ...positionals]);
    const queries = loadQueries(values.queries);
    const documents = tools.map((tool) => toSearchDocument(tool));
    const ranking = {
      ...DEFAULT_RANKING,
      minCoverage: readRatio('--min-coverage', values['min-coverage'], DEFAULT_RANKING.minCoverage),
      nameBonus: readRatio('--name-bonus', values['name-bonus'], DEFAULT_RANKING.nameBonus),
    };
    const engine = new SearchEngine(documents, ranking);
    const baseline = new ElasticlunrBaseline(documents);
    const idOf = (index: number) => ids[index] ?? '';
    const measure = (search: (query: string) => readonly { index: number }[], part: readonly EvalQuery[]) =>
      evaluate(
        part.map((q) => ({ ranked: search(q.query).map((hit) => idOf(hit.index)), gold: q.gold })),
        ks,
      );
    const parts = splitQueries(queries);
    const engines = {
      toolsearch: (query: string) => engine.search(query, depth),
      elasticlunr: (query: string) => baseline.search(query, depth),
    };
    const reports = Object.fromEntries(
      Object.entries(engines).map(([name, search]) => [
        name,
        { all: measure(search, queries), tuning: measure(search, parts.tuning), test: measure(search, parts.test) },
      ]),
    ) as Record<keyof typeof engines, Record<'all' | 'tuning' | 'test', EvalReport>>;
    if (values.json) {
      const { toolsearch: ours, elasticlunr: base } = reports;
      const withParts = (byPart: Record<'all' | 'tuning' | 'test', EvalReport>) => ({
        ...byPart.all,
        tuning: byPart.tuning,
        test: byPart.test,
      });
      io.out(`${JSON.stringify({ ...withParts(ours), baseline: withParts(base) }, null, 2)}\n`);
    } else {
      const rows = Object.entries(reports).flatMap(([name, byPart]) =>
        (['all', 'tuning', 'test'] as const).map((part) => line(`${name} ${part}`, byPart[part])),
      );
      io.out(
        `${queries.length} queries (tuning ${parts.tuning.length}, frozen test ${parts.test.length}), ${tools.length} tools\n${rows.join('\n')}\n`,
      );
    }
    return 0;
  },
};
