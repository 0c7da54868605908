import { isBridgeToolName, type JsonObject } from '@toolsearch/catalog';
import { BRIDGE_LIMITS } from '@toolsearch/disclosure';
import type { BridgeError } from './bridge-error';
import { isKnownElsewhere, lookupTool, similarNames, type BridgeSession } from './bridge-session';
import { readBridgeList } from './list-argument';

export interface DescribedTool {
  readonly description: string;
  readonly parameters: JsonObject;
  readonly returns?: JsonObject;
}

/** The model-facing answer of `tool_describe`; keys other than `tools` appear only when non-empty. */
export interface ToolDescribeResult {
  readonly tools: Record<string, DescribedTool>;
  readonly not_found?: string[];
  readonly hint?: string;
  readonly errors?: Record<string, string>;
}

export type ToolDescribeOutcome =
  | { readonly ok: true; readonly result: ToolDescribeResult }
  | { readonly ok: false; readonly error: BridgeError };

export const NOT_FOUND_HINT =
  'The names in not_found are not tools of this session. Use the exact names from tool_search or the listing; run tool_search again if the list may have changed.';

/** Why a name the session has cannot be described, or undefined when it can. */
export function directToolMessage(name: string): string {
  return `'${name}' is already in your tool list and is not behind the bridge: call it directly instead.`;
}

export function notInSessionMessage(name: string): string {
  return `'${name}' is not offered to this session (its toolset is not granted here). Do not retry it; use tool_search to find tools you can use.`;
}

/**
 * `tool_describe(names)`: full schemas of deferred tools, all names resolved in one call. Unknown
 * names go to `not_found` (with "did you mean" suggestions in the hint), names the session has
 * directly or not at all go to `errors`, and one bad name never fails the others.
 */
export function handleToolDescribe(session: BridgeSession, rawArguments: unknown): ToolDescribeOutcome {
  const read = readBridgeList(rawArguments, {
    tool: 'tool_describe',
    key: 'names',
    singular: 'name',
    what: 'exact tool names',
    example: '["github__create_issue"]',
    max: BRIDGE_LIMITS.maxNames,
    tooMany: 'Ask for the rest in another call.',
    dedupe: true,
    maxDepth: session.maxJsonDepth,
  });
  if (!read.ok) return read;
  const names = read.items;
  // Keyed by tool names that differ from request to request: prototype-less objects stay plain
  // dictionaries in V8 instead of growing a hidden class per combination of names.
  const tools = Object.create(null) as Record<string, DescribedTool>;
  const notFound: string[] = [];
  const errors = Object.create(null) as Record<string, string>;
  const suggestions = new Set<string>();
  for (const name of names) {
    const tool = lookupTool(session, name);
    if (tool?.deferred) {
      const { definition } = tool;
      tools[tool.name] = {
        description: definition.description,
        parameters: definition.inputSchema,
        ...(definition.outputSchema ? { returns: definition.outputSchema } : {}),
      };
    } else if (tool !== undefined || isBridgeToolName(name)) {
      errors[name] = directToolMessage(tool?.name ?? name);
    } else if (isKnownElsewhere(session, name)) {
      errors[name] = notInSessionMessage(name);
    } else {
      notFound.push(name);
      for (const similar of similarNames(session, name)) suggestions.add(similar);
    }
  }
  const hint =
    suggestions.size > 0
      ? `${NOT_FOUND_HINT} Did you mean: ${[...suggestions].slice(0, 5).join(', ')}?`
      : NOT_FOUND_HINT;
  return {
    ok: true,
    result: {
      tools,
      ...(notFound.length > 0 ? { not_found: notFound, hint } : {}),
      ...(Object.keys(errors).length > 0 ? { errors } : {}),
    },
  };
}
