import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCatalogFiles } from '../catalog-file';
import type { Toolset } from '../tool';

/** The repository root (this file is libs/catalog/src/testing/shared-data.ts). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');

/**
 * The public evaluation data lives beside the project, never inside it (it is other people's
 * data). `TOOLSEARCH_DATA_DIR` points elsewhere; a user's clone usually has none.
 */
export const SHARED_DATA_DIR = process.env['TOOLSEARCH_DATA_DIR'] ?? resolve(REPO_ROOT, '../shared/data');

/** Catalog files of the shared data, by short name. */
export const SHARED_CATALOGS = {
  github: 'catalog-github-mcp-server.jsonl',
  livemcpbench: 'catalog-livemcpbench.jsonl',
  stabletoolbench: 'catalog-stabletoolbench.jsonl',
  toucan: 'catalog-toucan-smithery.jsonl',
  toucanScraped: 'catalog-toucan-smithery-scraped.jsonl',
} as const;
export type SharedCatalogName = keyof typeof SHARED_CATALOGS;

/** True when the shared data folder is present. */
export function hasSharedData(): boolean {
  return existsSync(resolve(SHARED_DATA_DIR, SHARED_CATALOGS.github));
}

/** The message tests print when they skip for lack of the shared data. */
export const SHARED_DATA_SKIP_REASON = `shared evaluation data not found at ${SHARED_DATA_DIR} (set TOOLSEARCH_DATA_DIR); skipping tests that need real catalogs`;

export function sharedDataPath(file: string): string {
  return resolve(SHARED_DATA_DIR, file);
}

const cache = new Map<string, Toolset[]>();

/** Loads shared catalogs as toolsets (memoised per process). Throws if the data is absent. */
export function loadSharedCatalog(...names: SharedCatalogName[]): Toolset[] {
  const key = names.join('+');
  let toolsets = cache.get(key);
  if (toolsets === undefined) {
    const parsed = parseCatalogFiles(
      names.map((name) => ({
        source: SHARED_CATALOGS[name],
        text: readFileSync(sharedDataPath(SHARED_CATALOGS[name]), 'utf8'),
      })),
    );
    if (!parsed.ok) throw new Error(`${parsed.error.source}:${parsed.error.line}: ${parsed.error.message}`);
    toolsets = parsed.toolsets;
    cache.set(key, toolsets);
  }
  return toolsets;
}

/** Loads a JSON Lines file of the shared data as parsed objects. */
export function loadSharedJsonl<T = unknown>(file: string): T[] {
  return readFileSync(sharedDataPath(file), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
}

/**
 * Registers one visibly skipped test that says why, when the shared data is absent, so a run on a
 * user's clone shows what was not checked instead of silently passing.
 */
export function reportSharedDataSkip(register: (name: string, fn: () => void) => void): void {
  if (!hasSharedData()) register(SHARED_DATA_SKIP_REASON, () => undefined);
}
