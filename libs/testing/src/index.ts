// Fixtures built from the catalog model come from the catalog's own test entry point (so the
// catalog's tests need no import of this package); the hostile inputs are this package's own.
export * from '@toolsearch/catalog/testing';
export { hostileStrings, hostileJson } from './hostile-input';
export { BACKTRACKING_PATTERNS, BACKTRACKING_QUERIES, backtrackingRouting } from './backtracking';
