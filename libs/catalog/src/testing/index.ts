// The catalog's test entry point, `@toolsearch/catalog/testing` (never imported by the main one):
// small catalogs built with the catalog's own model and access to the shared evaluation data. It
// lives here, not in @toolsearch/testing, so that the catalog's own tests use it without a cycle
// between the two packages; @toolsearch/testing re-exports it for every other project.
export {
  REPO_ROOT,
  SHARED_DATA_DIR,
  SHARED_CATALOGS,
  SHARED_DATA_SKIP_REASON,
  hasSharedData,
  reportSharedDataSkip,
  sharedDataPath,
  loadSharedCatalog,
  loadSharedJsonl,
} from './shared-data';
export type { SharedCatalogName } from './shared-data';
export { tool, toolset, coreToolset, bigServer } from './fixtures';
