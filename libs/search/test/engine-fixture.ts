import { buildSessionTools, defaultToolSearchConfig } from '@toolsearch/catalog';
import { loadSharedCatalog, toolset } from '@toolsearch/testing';
import { DEFAULT_RANKING, type RankingOptions } from '../src/ranking-options';
import { SearchEngine } from '../src/search-engine';
import { toSearchDocument } from '../src/search-document';

/** An engine over the deferred tools of the given toolsets (`toolset(...)` arguments), for tests. */
export function engineOf(...toolsets: Parameters<typeof toolset>[]): SearchEngine {
  return rankedEngineOf(DEFAULT_RANKING, ...toolsets);
}

/** The same with other ranking options. */
export function rankedEngineOf(ranking: RankingOptions, ...toolsets: Parameters<typeof toolset>[]): SearchEngine {
  const table = buildSessionTools(
    toolsets.map((args) => toolset(...args)),
    defaultToolSearchConfig(),
  );
  return new SearchEngine(
    table.deferred.map((tool) => toSearchDocument(tool)),
    ranking,
  );
}

/** The model-facing names of a query's hits. */
export const names = (engine: SearchEngine, query: string, limit = 5): string[] =>
  engine.search(query, limit).map((hit) => hit.name);

/** The deferred tools of the 6,685-tool union (GitHub, LiveMCPBench, Toucan/Smithery) from `../shared/data`. */
export function unionTools() {
  return buildSessionTools(loadSharedCatalog('github', 'livemcpbench', 'toucan'), defaultToolSearchConfig()).deferred;
}
