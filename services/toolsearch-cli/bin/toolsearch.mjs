#!/usr/bin/env node
// Entry point of the `toolsearch` command: runs the compiled CLI (dist/main.js, made by
// scripts/build.mjs). In a checkout of the repository the bundle is first rebuilt when it is
// missing or older than its sources, so `npx toolsearch ...` always runs what the sources say; an
// installed image, which has no build script, runs the bundle it was built with.
import { existsSync } from 'node:fs';

const builder = new URL('../../../scripts/build.mjs', import.meta.url);
if (existsSync(builder)) {
  const { ensureBuilt } = await import(builder.href);
  await ensureBuilt(['cli']);
}
const { run } = await import('../dist/main.js');
process.exitCode = await run(process.argv.slice(2));
