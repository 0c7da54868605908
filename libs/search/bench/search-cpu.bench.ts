/**
 * Main-thread cost per request of the daemon's search (`SearchEngine.answer`, limit 5) over the
 * 6,685-tool union on the public query sets (long natural-language requests): µs per request over
 * full passes of every query, the current engine and an older copy of `libs/search/src`
 * (`BEFORE_SRC`, e.g. from `git archive main libs/search/src`) measured in alternating rounds, since
 * the machine is shared and noisy. Prints each round, then the median and best per engine.
 *
 *   BEFORE_SRC=/tmp/before/libs/search/src nice -n 19 node --expose-gc --import tsx libs/search/bench/search-cpu.bench.ts
 */
import { resolve } from 'node:path';
import type { SearchDocument } from '../src/search-document';
import { SearchEngine } from '../src/search-engine';
import { publicQueries, unionDocuments } from './union-data';

interface Engine {
  answer(query: string, limit: number): unknown;
}
type EngineClass = new (documents: readonly SearchDocument[]) => Engine;

const documents = unionDocuments();
const queries = publicQueries();
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const ROUNDS = Number(process.env['ROUNDS'] ?? 5);
const PASSES = Number(process.env['PASSES'] ?? 5);

/** µs per request over `PASSES` passes of every query. */
function measure(engine: Engine): number {
  gc();
  const started = process.cpuUsage();
  for (let pass = 0; pass < PASSES; pass += 1) for (const query of queries) engine.answer(query, 5);
  const used = process.cpuUsage(started);
  return (used.user + used.system) / (PASSES * queries.length);
}

const beforeSrc = process.env['BEFORE_SRC'];
const engines: [string, Engine][] = [['after', new SearchEngine(documents)]];
if (beforeSrc !== undefined) {
  const Before = ((await import(resolve(beforeSrc, 'search-engine.ts'))) as { SearchEngine: EngineClass }).SearchEngine;
  engines.unshift(['before', new Before(documents)]);
}
for (const [, engine] of engines) for (let pass = 0; pass < 3; pass += 1) for (const q of queries) engine.answer(q, 5);
console.log(`${documents.length} tools, ${queries.length} queries, limit 5, ${PASSES} passes per round`);
const times = new Map<string, number[]>(engines.map(([name]) => [name, []]));
for (let round = 1; round <= ROUNDS; round += 1) {
  // Alternate which engine goes first, so neither always runs right after a GC of the other's garbage.
  const order = round % 2 === 1 ? engines : [...engines].reverse();
  for (const [name, engine] of order) {
    const us = measure(engine);
    times.get(name)?.push(us);
    console.log(`round ${round} ${name.padEnd(6)} ${us.toFixed(1)} µs/request`);
  }
}
for (const [name, list] of times) {
  const sorted = [...list].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? NaN;
  console.log(`${name.padEnd(6)} median ${median.toFixed(1)} µs  best ${(sorted[0] ?? NaN).toFixed(1)} µs`);
}
