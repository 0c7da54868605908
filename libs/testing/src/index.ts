// Fixtures built from the catalog model come from the catalog's own test entry point (so the
// catalog's tests need no import of this package); the hostile inputs are this package's own.
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
  tool,
  toolset,
  coreToolset,
  bigServer,
} from '@toolsearch/catalog/testing';
export type { SharedCatalogName } from '@toolsearch/catalog/testing';
export { hostileStrings, hostileJson } from './hostile-input';
