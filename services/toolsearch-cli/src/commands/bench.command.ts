import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { ElasticlunrBaseline, SearchEngine, toSearchDocument, type SearchDocument } from '@toolsearch/search';
import { CliError } from '../cli-error';
import { loadQueries } from '../eval-input';
import { CATALOG_OPTION, JSON_OPTION, parseCommandArgs } from '../command-args';
import type { CliIo } from '../io';
import type { Command } from '../command';
import { catalogOf } from './eval.command';

const USAGE = `Usage: toolsearch bench --catalog FILE... [--queries Q.jsonl]... [--limit N] [--json]

Measures, in one process, for toolsearch and for plain elasticlunr: index build time, index memory
(heap growth after a full GC), and query latency p50/p99 over the queries after one warm-up pass.
Without --queries, queries are made from the first words of tool descriptions.`;

interface Measurement {
  build_ms: number;
  memory_bytes: number;
  p50_ms: number;
  p99_ms: number;
  mean_ms: number;
}

// A full collection before and after a build makes heap growth a fair measure of index size.
function collector(): () => void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  return () => {
    gc();
    gc();
  };
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

function round(value: number, digits = 3): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

function measure<T extends { search(query: string, limit: number): unknown }>(
  build: () => T,
  queries: readonly string[],
  limit: number,
  gc: () => void,
): Measurement {
  gc();
  const before = process.memoryUsage();
  const start = performance.now();
  const index = build();
  const buildMs = performance.now() - start;
  gc();
  const after = process.memoryUsage();
  for (const query of queries) index.search(query, limit);
  const times: number[] = [];
  for (const query of queries) {
    const t0 = performance.now();
    index.search(query, limit);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return {
    build_ms: round(buildMs, 1),
    memory_bytes: after.heapUsed + after.arrayBuffers - (before.heapUsed + before.arrayBuffers),
    p50_ms: round(percentile(times, 50), 4),
    p99_ms: round(percentile(times, 99), 4),
    mean_ms: round(times.reduce((sum, t) => sum + t, 0) / Math.max(times.length, 1), 4),
  };
}

function syntheticQueries(documents: readonly SearchDocument[]): string[] {
  const step = Math.max(1, Math.floor(documents.length / 500));
  const queries: string[] = [];
  for (let i = 0; i < documents.length; i += step) {
    const words = (documents[i]?.description ?? '').split(/\s+/).filter(Boolean).slice(0, 5).join(' ');
    if (words !== '') queries.push(words);
  }
  return queries;
}

export const benchCommand: Command = {
  summary: 'measure index build time, memory and query latency (with the elasticlunr baseline)',
  usage: USAGE,
  run(args: string[], io: CliIo): number {
    const { values, positionals } = parseCommandArgs(args, {
      ...CATALOG_OPTION,
      ...JSON_OPTION,
      queries: { type: 'string', multiple: true },
      limit: { type: 'string' },
    });
    const limit = Number(values.limit ?? 5);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100)
      throw new CliError('--limit must be a whole number from 1 to 100.');
    const { tools } = catalogOf([...(values.catalog ?? []), ...positionals]);
    const documents = tools.map((tool) => toSearchDocument(tool));
    const queries = (values.queries ?? []).flatMap((path) => loadQueries(path).map((q) => q.query));
    const workload = queries.length > 0 ? queries : syntheticQueries(documents);
    const gc = collector();
    const ours = measure(() => new SearchEngine(documents), workload, limit, gc);
    const baseline = measure(() => new ElasticlunrBaseline(documents), workload, limit, gc);
    const report = {
      tools: documents.length,
      queries: workload.length,
      ...ours,
      baseline,
      speedup_p50: round(baseline.p50_ms / ours.p50_ms, 1),
    };
    if (values.json) {
      io.out(`${JSON.stringify(report, null, 2)}\n`);
      return 0;
    }
    const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
    const row = (name: string, m: Measurement) =>
      `${name.padEnd(12)} build ${m.build_ms.toFixed(1).padStart(8)} ms  memory ${mib(m.memory_bytes).padStart(9)}  p50 ${m.p50_ms.toFixed(3)} ms  p99 ${m.p99_ms.toFixed(3)} ms`;
    io.out(
      `${report.tools} tools, ${report.queries} queries, limit ${limit}\n${row('toolsearch', ours)}\n${row('elasticlunr', baseline)}\nquery p50 speed-up: ${report.speedup_p50}x\n`,
    );
    return 0;
  },
};
