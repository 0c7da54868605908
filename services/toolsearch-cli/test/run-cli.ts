import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { REPO_ROOT } from '@toolsearch/testing';
import { run } from '../src/main';

/** The example catalog that ships with the project. */
export const EXAMPLE_CATALOG = resolve(REPO_ROOT, 'examples/catalogs/workspace.jsonl');

/** Runs the CLI in-process and captures what it prints. */
export async function runCli(args: string[], env: Record<string, string | undefined> = {}) {
  let out = '';
  let err = '';
  const code = await run(args, { out: (text) => (out += text), err: (text) => (err += text), env, isTty: false });
  return { code, out, err };
}

/** Writes a file into a fresh temporary folder and returns its path. */
export function tempFile(name: string, content: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'toolsearch-cli-')), name);
  writeFileSync(path, content);
  return path;
}
