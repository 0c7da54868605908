/**
 * The search benchmarks' data: the 6,685-tool union of three public catalogs as search documents,
 * and every public query text. Read from `../shared/data` (or `TOOLSEARCH_DATA_DIR`).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildSessionTools, defaultToolSearchConfig, parseCatalogFiles } from '@toolsearch/catalog';
import { parseQueryFile } from '../src/query-file';
import { toSearchDocument, type SearchDocument } from '../src/search-document';

const data = resolve(process.env['TOOLSEARCH_DATA_DIR'] ?? resolve(import.meta.dirname, '../../../../shared/data'));
const CATALOGS = ['catalog-github-mcp-server.jsonl', 'catalog-livemcpbench.jsonl', 'catalog-toucan-smithery.jsonl'];
const QUERIES = ['queries-livemcpbench.jsonl', 'queries-stabletoolbench.jsonl'];

export function unionDocuments(): SearchDocument[] {
  const parsed = parseCatalogFiles(
    CATALOGS.map((file) => ({ source: file, text: readFileSync(resolve(data, file), 'utf8') })),
  );
  if (!parsed.ok) throw new Error(parsed.error.message);
  return buildSessionTools(parsed.toolsets, defaultToolSearchConfig()).deferred.map((tool) => toSearchDocument(tool));
}

export function publicQueries(): string[] {
  return QUERIES.flatMap((file) => {
    const result = parseQueryFile(readFileSync(resolve(data, file), 'utf8'));
    return result.ok ? result.queries.map((q) => q.query) : [];
  });
}
