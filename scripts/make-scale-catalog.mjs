#!/usr/bin/env node
// Builds a large catalog for scale benchmarks from the public catalogs in ../shared/data (or
// TOOLSEARCH_DATA_DIR): every real tool once, then further copies of the real servers under new
// server names (`<server>~2`, `<server>~3`, …) until the size is reached. Deterministic.
// The output goes outside the repository by default, since it is other people's data.
//
//   node scripts/make-scale-catalog.mjs [--tools 100000] [--out /tmp/toolsearch-scale-100000.jsonl]
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = process.env.TOOLSEARCH_DATA_DIR ?? resolve(root, '../shared/data');
const { values } = parseArgs({ options: { tools: { type: 'string', default: '100000' }, out: { type: 'string' } } });
const target = Number(values.tools);
if (!Number.isInteger(target) || target < 1 || target > 10_000_000) {
  console.error('--tools must be a whole number from 1 to 10000000');
  process.exit(2);
}
const out = values.out ?? join('/tmp', `toolsearch-scale-${target}.jsonl`);
const files = [
  'catalog-toucan-smithery.jsonl',
  'catalog-toucan-smithery-scraped.jsonl',
  'catalog-stabletoolbench.jsonl',
  'catalog-livemcpbench.jsonl',
  'catalog-github-mcp-server.jsonl',
];
let base;
try {
  base = files.flatMap((file) =>
    readFileSync(join(dataDir, file), 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line)),
  );
} catch (error) {
  console.error(`cannot read the public catalogs in ${dataDir}: ${error.message}`);
  process.exit(2);
}
const lines = [];
for (let copy = 1; lines.length < target; copy += 1) {
  for (const tool of base) {
    if (lines.length >= target) break;
    const server = copy === 1 ? tool.server : `${tool.server}~${copy}`;
    lines.push(
      JSON.stringify({ server, name: tool.name, description: tool.description, inputSchema: tool.inputSchema }),
    );
  }
}
writeFileSync(out, `${lines.join('\n')}\n`);
console.log(`${lines.length} tools written to ${out}`);
