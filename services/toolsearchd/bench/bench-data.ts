import { readFileSync } from 'node:fs';
import { parseCatalogFiles, type Toolset } from '@toolsearch/catalog';
import { parseQueryFile } from '@toolsearch/search';
import { SHARED_CATALOGS, sharedDataPath } from '@toolsearch/testing';

/** What the daemon bench searches: the 6,685-tool union catalog and requests for it (shared data). */
export function loadToolsets(): Toolset[] {
  const parsed = parseCatalogFiles(
    (['github', 'livemcpbench', 'toucan'] as const).map((name) => ({
      source: name,
      text: readFileSync(sharedDataPath(SHARED_CATALOGS[name]), 'utf8'),
    })),
  );
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.toolsets;
}

/** Short keyword queries like the ones the bridge asks models to write: a tool's own name words. */
export function keywordQueries(toolsets: Toolset[]): string[] {
  const names = toolsets.flatMap((toolset) => toolset.tools.map((tool) => tool.name));
  const step = Math.max(1, Math.floor(names.length / 700));
  return names
    .filter((_, index) => index % step === 0)
    .map((name) =>
      name
        .replace(/([a-z])([A-Z])/g, '$1 $2')
        .replace(/[^A-Za-z0-9]+/g, ' ')
        .trim()
        .toLowerCase(),
    )
    .filter((q) => q !== '');
}

/** The public query sets' requests (long natural-language requests). */
export function publicQueries(): string[] {
  return (['queries-livemcpbench.jsonl', 'queries-stabletoolbench.jsonl'] as const).flatMap((file) => {
    const parsed = parseQueryFile(readFileSync(sharedDataPath(file), 'utf8'));
    return parsed.ok ? parsed.queries.map((q) => q.query) : [];
  });
}
