/**
 * The public catalogs the build-time learners read (`learn-associations.ts`,
 * `learn-term-vectors.ts`), from `../shared/data` or the directory given as the first argument.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Every public catalog: tool texts teach word statistics, never a query. */
export const PUBLIC_CATALOGS = [
  'catalog-github-mcp-server.jsonl',
  'catalog-livemcpbench.jsonl',
  'catalog-stabletoolbench.jsonl',
  'catalog-toucan-smithery.jsonl',
  'catalog-toucan-smithery-scraped.jsonl',
] as const;

/** One line of a catalog file. */
export interface CatalogTool {
  server: string;
  name: string;
  description?: string;
  inputSchema?: unknown;
}

/** The data directory (first argument, else `../shared/data` beside the repository); exits when it is missing. */
export function publicDataDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const dataDir = resolve(process.argv[2] ?? resolve(here, '../../../../shared/data'));
  if (!existsSync(dataDir)) {
    console.error(`no data at ${dataDir}: nothing learned`);
    process.exit(1);
  }
  return dataDir;
}

/** The records of a JSON-lines file of the data directory. */
export function readJsonl<T>(dataDir: string, file: string): T[] {
  return readFileSync(resolve(dataDir, file), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
}

/** The text a tool is learned from: its name and description. */
export const toolText = (tool: CatalogTool): string => `${tool.name} ${tool.description ?? ''}`;

/** A string literal as the repository's formatter writes it (single quotes; no quote or backslash occurs). */
export function quoted(text: string): string {
  if (/['\\\n]/.test(text)) throw new Error('unexpected quote, backslash or newline in the generated table');
  return `'${text}'`;
}
