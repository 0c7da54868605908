#!/usr/bin/env node
// Entry point of the `toolsearchd` command: runs the compiled daemon (dist/main.js, made by
// scripts/build.mjs) with the arguments given (`toolsearchd --config FILE`). In a checkout of the
// repository the bundle is first rebuilt when it is missing or older than its sources. Deployments
// run the bundle directly: `node services/toolsearchd/dist/main.js`.
import { existsSync } from 'node:fs';

const builder = new URL('../../../scripts/build.mjs', import.meta.url);
if (existsSync(builder)) {
  const { ensureBuilt } = await import(builder.href);
  await ensureBuilt(['toolsearchd']);
}
await import('../dist/main.js');
