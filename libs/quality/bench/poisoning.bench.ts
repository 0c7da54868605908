// Scan time of the poisoning scanner over the Toucan catalog, next to what registering that
// catalog costs in the same process (parse and validate the file, name the tools, build the
// search index), in alternating rounds because this machine's speed drifts. Each round also scans
// with `exhaustive: true` (every field through the full scan, no prefilter: the scanner before the
// prefilter), in alternating order, and checks both find the same.
// Run: node --import tsx libs/quality/bench/poisoning.bench.ts
import { readFileSync } from 'node:fs';
import { buildSessionTools, defaultToolSearchConfig, parseCatalogFiles } from '@toolsearch/catalog';
import { SearchEngine, toSearchDocument } from '@toolsearch/search';
import { hasSharedData, SHARED_CATALOGS, SHARED_DATA_SKIP_REASON, sharedDataPath } from '@toolsearch/testing';
import { scanCatalogForPoisoning } from '../src/index';

const ROUNDS = Number(process.env['ROUNDS'] ?? 9);
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[values.length >> 1] ?? NaN;

function main(): void {
  if (!hasSharedData()) {
    console.log(SHARED_DATA_SKIP_REASON);
    return;
  }
  const text = readFileSync(sharedDataPath(SHARED_CATALOGS.toucan), 'utf8');
  const register: number[] = [];
  const scan: number[] = [];
  const full: number[] = [];
  let tools = 0;
  for (let round = 0; round < ROUNDS; round += 1) {
    const started = performance.now();
    const parsed = parseCatalogFiles([{ source: SHARED_CATALOGS.toucan, text }]);
    if (!parsed.ok) throw new Error(parsed.error.message);
    const table = buildSessionTools(parsed.toolsets, defaultToolSearchConfig()).deferred;
    new SearchEngine(table.map((tool) => toSearchDocument(tool)));
    const registered = performance.now();
    const quickFirst = round % 2 === 0;
    const timed = (exhaustive: boolean) => {
      const at = performance.now();
      const result = scanCatalogForPoisoning(table, { exhaustive });
      return { result, ms: performance.now() - at };
    };
    const first = timed(!quickFirst);
    const second = timed(quickFirst);
    const [quick, exhaustive] = quickFirst ? [first, second] : [second, first];
    if (JSON.stringify(quick.result.findings) !== JSON.stringify(exhaustive.result.findings))
      throw new Error('the prefilter changed the findings');
    register.push(registered - started);
    scan.push(quick.ms);
    full.push(exhaustive.ms);
    tools = quick.result.tools;
  }
  const scanMs = median(scan);
  const registerMs = median(register);
  console.log(
    `toucan: ${tools} tools; scan median ${scanMs.toFixed(0)} ms (${((scanMs * 1000) / tools).toFixed(1)} µs/tool, ` +
      `first ${scan[0]?.toFixed(0)} ms); register (parse + names + index) median ${registerMs.toFixed(0)} ms; ` +
      `scan / register ${((scanMs / registerMs) * 100).toFixed(1)} %; exhaustive scan median ${median(full).toFixed(0)} ms ` +
      `(${((median(full) / registerMs) * 100).toFixed(1)} %)`,
  );
}

main();
