#!/usr/bin/env node
// Entry point of the `toolsearch` command. The CLI is written in TypeScript and run through tsx,
// so a fresh clone needs no build step: `npm install` then `npx toolsearch ...`.
import { register } from 'tsx/esm/api';

register();
const { run } = await import('../src/main.ts');
process.exitCode = await run(process.argv.slice(2));
