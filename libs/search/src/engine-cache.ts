import type { SessionTool } from '@toolsearch/catalog';
import { SearchEngine } from './search-engine';
import { toSearchDocument } from './search-document';

const engines = new WeakMap<readonly SessionTool[], SearchEngine>();

/**
 * The search engine of a catalog, built once per catalog value and shared by every session that
 * holds it. Catalog arrays come from a content-addressed assembly cache, so equal content means
 * the same array and the same engine; a changed toolset means a new array and a new engine.
 */
export function searchEngineFor(catalog: readonly SessionTool[]): SearchEngine {
  let engine = engines.get(catalog);
  if (engine === undefined) {
    engine = new SearchEngine(catalog.map((tool) => toSearchDocument(tool)));
    engines.set(catalog, engine);
  }
  return engine;
}
