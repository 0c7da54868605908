export { ToolsearchClient } from './client';
export type { ClientOptions } from './client';
