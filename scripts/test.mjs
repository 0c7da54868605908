#!/usr/bin/env node
// `npm test`: every test of the workspace in one vitest run. Extra arguments go to vitest
// (for example `npm test -- libs/search`). With --json-out FILE the JSON report is also written
// there, which .ci/run reads to print its plain "N passed, N failed" line.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ensureInstalled } from './ensure-installed.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
ensureInstalled(root);
const args = process.argv.slice(2);
const jsonIndex = args.indexOf('--json-out');
const vitestArgs = ['vitest', 'run'];
if (jsonIndex >= 0) {
  const file = args[jsonIndex + 1];
  args.splice(jsonIndex, 2);
  vitestArgs.push('--reporter=default', '--reporter=json', `--outputFile.json=${file}`);
}
const result = spawnSync('npx', [...vitestArgs, ...args], { cwd: root, stdio: 'inherit', env: process.env });
process.exit(result.status ?? 1);
