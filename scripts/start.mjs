#!/usr/bin/env node
// `npm start`: until the daemon lands, a short tour of the CLI on the example catalog that ships
// with the project: the same 34 tools assembled for a small, a mid-size and a large context window.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ensureInstalled } from './ensure-installed.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
ensureInstalled(root);
const catalog = 'examples/catalogs/workspace.jsonl';
const steps = [
  [
    'A 1M-token model with the example catalog (34 tools on 8 servers):',
    ['assemble', '--catalog', catalog, '--context', '1m'],
  ],
  [
    'The same tools for an 8K-token model: the listing degrades to fit 400 tokens:',
    ['assemble', '--catalog', catalog, '--context', '8k'],
  ],
  [
    'The tool array in Anthropic format, as JSON (first lines):',
    ['assemble', '--catalog', catalog, '--context', '8k', '--format', 'anthropic', '--json'],
  ],
];
for (const [title, args] of steps) {
  console.log(`\n== ${title}\n$ npx toolsearch ${args.join(' ')}\n`);
  const result = spawnSync(process.execPath, ['services/toolsearch-cli/bin/toolsearch.mjs', ...args], {
    cwd: root,
    encoding: 'utf8',
  });
  const out = args.includes('--json') ? result.stdout.split('\n').slice(0, 14).join('\n') + '\n  ...' : result.stdout;
  process.stdout.write(out);
  if (result.status !== 0) {
    process.stderr.write(result.stderr);
    process.exit(result.status ?? 1);
  }
}
console.log('\nTry: npx toolsearch assemble --help');
