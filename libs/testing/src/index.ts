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
export { hostileStrings, hostileJson } from './hostile-input';
