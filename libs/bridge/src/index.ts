export { BRIDGE_ERROR_CODES, bridgeError, errorPayload } from './bridge-error';
export type { BridgeError, BridgeErrorCode } from './bridge-error';
export { createBridgeSession, foldName, similarNames, lookupTool, isKnownElsewhere } from './bridge-session';
export type { BridgeSession } from './bridge-session';
export { readStringList, readArgumentsObject, readBridgeList } from './list-argument';
export type { ListArgument, ListSpec } from './list-argument';
export {
  handleToolSearch,
  readLimit,
  requiredNames,
  DESCRIPTION_CLIP,
  MAX_REQUIRED_NAMES,
  MAX_REQUIRED_NAME_LENGTH,
  MAX_QUERY_LENGTH,
  EMPTY_GROUP_HINT,
  NO_GOOD_MATCH_HINT,
  MAX_CLOSEST_SOURCES,
} from './tool-search.handler';
export type {
  ToolSearchResult,
  ToolSearchOutcome,
  SearchGroup,
  ToolRecord,
  AvailableSource,
  MatchDetail,
  QueryExplanation,
  UsageSignal,
} from './tool-search.handler';
export { handleToolDescribe, NOT_FOUND_HINT, directToolMessage, notInSessionMessage } from './tool-describe.handler';
export type { ToolDescribeResult, ToolDescribeOutcome, DescribedTool } from './tool-describe.handler';
export { handleToolCall, normalizeCallEntries, resolveCallEntry } from './tool-call.handler';
export type { CallEntry, UnwrappedCall, EntryOutcome, ToolCallOutcome } from './tool-call.handler';
export { checkArguments, normaliseSchema, hasRemoteRef, argumentPath } from './argument-validation';
export { MAX_JSON_DEPTH, jsonDepthWithin, valueDepthWithin, parseJsonWithin } from './json-depth';
export type { ArgumentCheck, ArgumentProblem } from './argument-validation';
export { planTurn, stepsOf, isParallelSafe, runsFullyParallel } from './batch-plan';
export type { TurnCall, PlannedStep, Segment } from './batch-plan';
export { routedSearch, matchesToolPattern, confirmationRule, ROUTING_SEARCH_BUDGET } from './routing';
export type { RoutingBudget } from './routing';
export { DEFAULT_CALL_POLICY, guardrailVerdict, approvalReason, canonicalJson, argumentsDigest } from './call-policy';
export type { CallPolicy, GuardrailVerdict } from './call-policy';
