export {
  ToolKindSchema,
  RiskSchema,
  JsonObjectSchema,
  ToolAnnotationsSchema,
  ToolDefinitionSchema,
  ToolsetIdSchema,
  ToolsetSchema,
  WithheldToolSchema,
  toolsetLabel,
} from './tool';
export type {
  ToolKind,
  Risk,
  JsonObject,
  ToolAnnotations,
  ToolDefinition,
  ToolDefinitionInput,
  Toolset,
  ToolsetInput,
  WithheldTool,
} from './tool';
export {
  MODEL_NAME_PATTERN,
  MAX_MODEL_NAME_LENGTH,
  NAMESPACE_SEPARATOR,
  BRIDGE_TOOL_NAMES,
  isBridgeToolName,
  slugify,
  baseModelName,
  assignModelNames,
} from './names';
export type { BridgeToolName, NameRequest } from './names';
export {
  DEFAULT_CORE_TOOLS,
  DEFAULT_DEFER_TOOLS,
  CONFIG_LIMITS,
  ASSUMED_CONTEXT_TOKENS,
  parseTriState,
  parseEnableToolSearch,
  parseToolSearchConfig,
  defaultToolSearchConfig,
} from './config';
export type { ActivationMode, TriState, ToolSearchConfig, ParsedConfig, ParseOptions } from './config';
export { ROUTING_LIMITS, routingRuleApplies } from './routing-rules';
export type { RoutingRule } from './routing-rules';
export { QUERY_PATTERN_LIMITS, QUERY_PATTERN_PROBLEMS, compileQueryPattern } from './query-pattern';
export type { QueryPattern, QueryPatternProblem, QueryPatternResult } from './query-pattern';
export { compileGlob, globMatches } from './glob';
export type { Glob, GlobOptions } from './glob';
export { canonicalToolsetOrder, isDeferrable, buildSessionTools } from './session-tools';
export type { SessionTool, SessionToolTable, UnavailableSource } from './session-tools';
export { CatalogRecordSchema, parseCatalogFiles, catalogToolsetId } from './catalog-file';
export type { CatalogRecord, CatalogLineError, CatalogParseResult } from './catalog-file';
export { FairCache } from './fair-cache';
export { RecencyList } from './recency-list';
export type { RecencyLinks } from './recency-list';
