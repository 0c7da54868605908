export { SHORT_DESCRIPTION_CHARS, singleLine, shortDescription } from './short-description';
export { LISTING_HEADER, buildListing, listingBudget } from './listing';
export type { Listing, ListingForm } from './listing';
export { bridgeTools } from './bridge-schemas';
export type { NeutralTool, BridgeSchemaInput } from './bridge-schemas';
export { TOOL_FORMATS, isToolFormat, formatTools } from './formats';
export type { ToolFormat, OpenAiTool, AnthropicTool, McpTool, FormattedTool } from './formats';
export { BRIDGE_LIMITS, assembleSession } from './assemble';
export type { Tier, AssemblyInput, AssemblyResult, Assembly } from './assemble';
export { AssemblyCache, assemblyTools } from './assembly-cache';

