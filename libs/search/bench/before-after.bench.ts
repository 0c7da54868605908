/**
 * Speed of two search engines in one process, alternating: the current one and an older copy of
 * `libs/search/src` (`BEFORE_SRC`, e.g. from `git archive <commit> libs/search/src`), on the
 * 6,685-tool union and the public queries. Build time, index memory (heap growth after a full GC,
 * measured after a warm-up so the lazily loaded learned tables are included) and query p50/p99.
 *
 *   BEFORE_SRC=/tmp/before/libs/search/src node --expose-gc --import tsx libs/search/bench/before-after.bench.ts
 */
import { resolve } from 'node:path';
import type { SearchDocument } from '../src/search-document';
import { SearchEngine } from '../src/search-engine';
import { publicQueries, unionDocuments } from './union-data';

interface Engine {
  search(query: string, limit: number): unknown;
}
type EngineClass = new (documents: readonly SearchDocument[]) => Engine;

const documents = unionDocuments();
const queries = publicQueries();
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

function measure(Engine: EngineClass): string {
  gc();
  gc();
  const before = process.memoryUsage();
  const started = performance.now();
  const engine = new Engine(documents);
  const build = performance.now() - started;
  for (const query of queries) engine.search(query, 5); // warm-up (and the lazily loaded tables)
  gc();
  gc();
  const after = process.memoryUsage();
  const times: number[] = [];
  for (const query of queries) {
    const t0 = performance.now();
    engine.search(query, 5);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const at = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))] ?? NaN;
  const mib = (after.heapUsed + after.arrayBuffers - before.heapUsed - before.arrayBuffers) / 2 ** 20;
  return `build ${build.toFixed(0)} ms  memory ${mib.toFixed(1)} MiB  p50 ${at(0.5).toFixed(3)} ms  p99 ${at(0.99).toFixed(3)} ms`;
}

const beforeSrc = process.env['BEFORE_SRC'];
const Before = beforeSrc
  ? ((await import(resolve(beforeSrc, 'search-engine.ts'))) as { SearchEngine: EngineClass }).SearchEngine
  : undefined;
console.log(`${documents.length} tools, ${queries.length} queries, limit 5`);
for (let round = 1; round <= Number(process.env['ROUNDS'] ?? 3); round += 1) {
  if (Before !== undefined) console.log(`round ${round} before  ${measure(Before)}`);
  console.log(`round ${round} after   ${measure(SearchEngine)}`);
}
