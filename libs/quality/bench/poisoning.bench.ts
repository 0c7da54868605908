// Scan time of the poisoning scanner over the Toucan catalog, next to what registering that
// catalog costs in the same process (parse and validate the file, name the tools, build the
// search index), in alternating rounds because this machine's speed drifts.
// Run: node --import tsx libs/quality/bench/poisoning.bench.ts
import { readFileSync } from 'node:fs';
import { buildSessionTools, defaultToolSearchConfig, parseCatalogFiles } from '@toolsearch/catalog';
import { SearchEngine, toSearchDocument } from '@toolsearch/search';
import { hasSharedData, SHARED_CATALOGS, SHARED_DATA_SKIP_REASON, sharedDataPath } from '@toolsearch/testing';
import { scanCatalogForPoisoning } from '../src/index';

const ROUNDS = 7;
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[values.length >> 1] ?? NaN;

function main(): void {
  if (!hasSharedData()) {
    console.log(SHARED_DATA_SKIP_REASON);
    return;
  }
  const text = readFileSync(sharedDataPath(SHARED_CATALOGS.toucan), 'utf8');
  const register: number[] = [];
  const scan: number[] = [];
  let tools = 0;
  for (let round = 0; round < ROUNDS; round += 1) {
    const started = performance.now();
    const parsed = parseCatalogFiles([{ source: SHARED_CATALOGS.toucan, text }]);
    if (!parsed.ok) throw new Error(parsed.error.message);
    const table = buildSessionTools(parsed.toolsets, defaultToolSearchConfig()).deferred;
    new SearchEngine(table.map((tool) => toSearchDocument(tool)));
    const registered = performance.now();
    const report = scanCatalogForPoisoning(table);
    const scanned = performance.now();
    register.push(registered - started);
    scan.push(scanned - registered);
    tools = report.tools;
  }
  const scanMs = median(scan);
  const registerMs = median(register);
  console.log(
    `toucan: ${tools} tools; scan median ${scanMs.toFixed(0)} ms (${((scanMs * 1000) / tools).toFixed(1)} µs/tool, ` +
      `first ${scan[0]?.toFixed(0)} ms); register (parse + names + index) median ${registerMs.toFixed(0)} ms; ` +
      `scan / register ${((scanMs / registerMs) * 100).toFixed(0)} %`,
  );
}

main();
