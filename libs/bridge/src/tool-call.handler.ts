import { isBridgeToolName, type SessionTool } from '@toolsearch/catalog';
import { BRIDGE_LIMITS } from '@toolsearch/disclosure';
import { checkArguments } from './argument-validation';
import { BRIDGE_ERROR_CODES, bridgeError, type BridgeError } from './bridge-error';
import { isKnownElsewhere, lookupTool, similarNames, withheldError, type BridgeSession } from './bridge-session';
import { MAX_JSON_DEPTH, parseJsonWithin } from './json-depth';
import { directToolMessage, notInSessionMessage } from './tool-describe.handler';

/** One entry of a `tool_call`, normalised: a name and an arguments object. */
export interface CallEntry {
  readonly name: string;
  readonly arguments: Record<string, unknown>;
}

/**
 * A call ready for a dispatcher: the real tool (never `tool_call`), its owner's names, and the
 * arguments as validated. Hooks, guardrails, approvals and the activity feed all see this.
 */
export interface UnwrappedCall {
  /** Model-facing name. */
  readonly name: string;
  readonly tool: SessionTool;
  readonly arguments: Record<string, unknown>;
  /** False when the schema could not be checked (unusable schema, remote `$ref`): the tool judges. */
  readonly validated: boolean;
}

export type EntryOutcome =
  | { readonly ok: true; readonly call: UnwrappedCall }
  | { readonly ok: false; readonly error: BridgeError };

export type ToolCallOutcome =
  | { readonly ok: true; readonly entries: EntryOutcome[] }
  | { readonly ok: false; readonly error: BridgeError };

function bad(message: string): { ok: false; error: BridgeError } {
  return { ok: false, error: bridgeError(BRIDGE_ERROR_CODES.BAD_ARGUMENTS, message) };
}

/**
 * Normalises `tool_call`'s arguments into entries. Accepts `calls` as a list, as one object or as
 * a JSON string of either, and the older single `{name, arguments}` form. Arguments may be an
 * object, a JSON string of one, or blank (some gateways send "" for tools without parameters).
 * JSON text is parsed only when it nests at most `maxDepth` levels.
 */
export function normalizeCallEntries(
  raw: unknown,
  maxDepth: number = MAX_JSON_DEPTH,
): { ok: true; entries: CallEntry[] } | { ok: false; error: BridgeError } {
  const parseJson = (text: string) => parseJsonWithin(text, maxDepth);
  let args: unknown = raw;
  if (typeof args === 'string') {
    const parsed = parseJson(args.trim() === '' ? '{}' : args);
    if (!parsed.ok) return bad(`tool_call arguments are not valid JSON: ${parsed.message}`);
    args = parsed.value;
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    return bad('tool_call takes {"calls": [{"name": ..., "arguments": {...}}]}.');
  }
  const record = args as Record<string, unknown>;
  let calls = record['calls'];
  if (calls === undefined || calls === null) {
    if (typeof record['name'] !== 'string' || record['name'].trim() === '') {
      return bad("tool_call requires 'calls': a list of {name, arguments}, one per tool to run.");
    }
    calls = [{ name: record['name'], arguments: record['arguments'] }];
  }
  if (typeof calls === 'string') {
    const parsed = parseJson(calls);
    if (!parsed.ok) return bad(`tool_call 'calls' is not valid JSON: ${parsed.message}`);
    calls = parsed.value;
  }
  if (typeof calls === 'object' && calls !== null && !Array.isArray(calls)) calls = [calls];
  if (!Array.isArray(calls) || calls.length === 0)
    return bad("tool_call 'calls' must be a non-empty list of {name, arguments}.");
  if (calls.length > BRIDGE_LIMITS.maxCalls) {
    return {
      ok: false,
      error: bridgeError(
        BRIDGE_ERROR_CODES.TOO_MANY,
        `Too many calls: ${calls.length}, at most ${BRIDGE_LIMITS.maxCalls} per tool_call.`,
      ),
    };
  }
  const entries: CallEntry[] = [];
  for (const [index, entry] of calls.entries()) {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      return bad(`tool_call calls[${index}] must be an object with 'name' and 'arguments'.`);
    }
    const { name, arguments: value } = entry as { name?: unknown; arguments?: unknown };
    if (typeof name !== 'string' || name.trim() === '') return bad(`tool_call calls[${index}] needs a 'name'.`);
    if (isBridgeToolName(name.trim())) {
      return {
        ok: false,
        error: bridgeError(
          BRIDGE_ERROR_CODES.BRIDGE_RECURSION,
          `tool_call cannot run '${name.trim()}': it is a bridge tool itself. Call it directly.`,
        ),
      };
    }
    let argumentsObject: unknown = value;
    if (argumentsObject === undefined || argumentsObject === null) argumentsObject = {};
    if (typeof argumentsObject === 'string') {
      if (argumentsObject.trim() === '') argumentsObject = {};
      else {
        const parsed = parseJson(argumentsObject);
        if (!parsed.ok) return bad(`tool_call calls[${index}].arguments is not valid JSON: ${parsed.message}`);
        argumentsObject = parsed.value;
      }
    }
    if (typeof argumentsObject !== 'object' || argumentsObject === null || Array.isArray(argumentsObject)) {
      return bad(`tool_call calls[${index}].arguments must be an object.`);
    }
    entries.push({ name: name.trim(), arguments: argumentsObject as Record<string, unknown> });
  }
  return { ok: true, entries };
}

/**
 * Resolves one entry against the session: the scope check (only tools of this session), the
 * "call it directly" case, "did you mean" for unknown names, then argument validation. An entry
 * that passes is unwrapped into the real call.
 */
export function resolveCallEntry(session: BridgeSession, entry: CallEntry): EntryOutcome {
  const tool = lookupTool(session, entry.name);
  if (tool === undefined) {
    const withheld = withheldError(session, entry.name);
    if (withheld !== undefined) return { ok: false, error: withheld };
    if (isKnownElsewhere(session, entry.name)) {
      return { ok: false, error: bridgeError(BRIDGE_ERROR_CODES.NOT_IN_SESSION, notInSessionMessage(entry.name)) };
    }
    const similar = similarNames(session, entry.name);
    const advice =
      similar.length > 0
        ? ` Did you mean ${similar.map((name) => `'${name}'`).join(', ')}?`
        : ' Use tool_search to find the exact name.';
    return {
      ok: false,
      error: bridgeError(BRIDGE_ERROR_CODES.UNKNOWN_TOOL, `'${entry.name}' is not a tool of this session.${advice}`),
    };
  }
  if (!tool.deferred)
    return { ok: false, error: bridgeError(BRIDGE_ERROR_CODES.NOT_DEFERRED, directToolMessage(tool.name)) };
  const check = checkArguments(tool.name, tool.definition.inputSchema, entry.arguments, session.maxJsonDepth);
  if (!check.ok) {
    const { message, ...details } = check.problem;
    return { ok: false, error: bridgeError(BRIDGE_ERROR_CODES.INVALID_ARGUMENTS, message, details) };
  }
  return { ok: true, call: { name: tool.name, tool, arguments: check.arguments, validated: check.checked } };
}

/**
 * `tool_call(calls)`: normalises the entries and resolves each on its own, so one bad entry never
 * blocks the others. Nothing runs here; the dispatcher runs the unwrapped calls.
 */
export function handleToolCall(session: BridgeSession, rawArguments: unknown): ToolCallOutcome {
  const normalized = normalizeCallEntries(rawArguments, session.maxJsonDepth);
  if (!normalized.ok) return normalized;
  return { ok: true, entries: normalized.entries.map((entry) => resolveCallEntry(session, entry)) };
}
