import { checkArguments } from './argument-validation';
import { BRIDGE_ERROR_CODES, bridgeError, type BridgeError } from './bridge-error';
import { isKnownElsewhere, lookupTool, similarNames, withheldError, type BridgeSession } from './bridge-session';
import { readArgumentsObject } from './list-argument';
import { normalizeCallEntries, resolveCallEntry, type UnwrappedCall } from './tool-call.handler';
import { notInSessionMessage } from './tool-describe.handler';

/** One tool call of a model turn, as the model emitted it. */
export interface TurnCall {
  readonly id: string;
  readonly name: string;
  /** An object, or the JSON text the model produced. */
  readonly arguments: unknown;
}

/** One unit of work of a turn. A `tool_call` with several entries gives one step per entry. */
export type PlannedStep =
  | {
      readonly kind: 'lookup';
      readonly callId: string;
      readonly name: 'tool_search' | 'tool_describe';
      readonly arguments: unknown;
    }
  | { readonly kind: 'tool'; readonly callId: string; readonly entryIndex: number | null; readonly call: UnwrappedCall }
  | {
      readonly kind: 'error';
      readonly callId: string;
      readonly entryIndex: number | null;
      readonly error: BridgeError;
      /** The tool name the call asked for, when it got that far (for audit records). */
      readonly attempted?: string;
    };

/** Steps run together (`parallel`) or one after another (`sequential`), in plan order. */
export interface Segment {
  readonly mode: 'parallel' | 'sequential';
  readonly steps: readonly PlannedStep[];
}

function directStep(session: BridgeSession, call: TurnCall): PlannedStep {
  const tool = lookupTool(session, call.name);
  if (tool === undefined) {
    const error =
      withheldError(session, call.name) ??
      (isKnownElsewhere(session, call.name)
        ? bridgeError(BRIDGE_ERROR_CODES.NOT_IN_SESSION, notInSessionMessage(call.name))
        : bridgeError(
            BRIDGE_ERROR_CODES.UNKNOWN_TOOL,
            `'${call.name}' is not a tool of this session.${similarNames(session, call.name).length > 0 ? ` Did you mean ${similarNames(session, call.name).join(', ')}?` : ''}`,
          ));
    return { kind: 'error', callId: call.id, entryIndex: null, error, attempted: call.name };
  }
  const args = readArgumentsObject(call.arguments, session.maxJsonDepth);
  if (args === undefined) {
    return {
      kind: 'error',
      callId: call.id,
      entryIndex: null,
      error: bridgeError(BRIDGE_ERROR_CODES.BAD_ARGUMENTS, `The arguments of '${tool.name}' must be a JSON object.`),
    };
  }
  const check = checkArguments(tool.name, tool.definition.inputSchema, args, session.maxJsonDepth);
  if (!check.ok) {
    const { message, ...details } = check.problem;
    return {
      kind: 'error',
      callId: call.id,
      entryIndex: null,
      error: bridgeError(BRIDGE_ERROR_CODES.INVALID_ARGUMENTS, message, details),
    };
  }
  return {
    kind: 'tool',
    callId: call.id,
    entryIndex: null,
    call: { name: tool.name, tool, arguments: check.arguments, validated: check.checked },
  };
}

/** Turns one model call into steps: bridge lookups stay lookups, `tool_call` is unwrapped. */
export function stepsOf(session: BridgeSession, call: TurnCall): PlannedStep[] {
  if (call.name === 'tool_search' || call.name === 'tool_describe') {
    return [{ kind: 'lookup', callId: call.id, name: call.name, arguments: call.arguments }];
  }
  if (call.name !== 'tool_call') return [directStep(session, call)];
  const normalized = normalizeCallEntries(call.arguments, session.maxJsonDepth);
  if (!normalized.ok) return [{ kind: 'error', callId: call.id, entryIndex: null, error: normalized.error }];
  return normalized.entries.map((entry, index) => {
    const outcome = resolveCallEntry(session, entry);
    return outcome.ok
      ? { kind: 'tool', callId: call.id, entryIndex: index, call: outcome.call }
      : { kind: 'error', callId: call.id, entryIndex: index, error: outcome.error, attempted: entry.name };
  });
}

/**
 * Whether a step may run alongside others: the bridge lookups (stateless catalog reads) and tools
 * that are parallel-safe (`readOnlyHint`, an MCP server with `supports_parallel_tool_calls`, a
 * plugin's declaration) — judged on the real tool, never on the `tool_call` wrapper. Everything
 * else, including a malformed call, is a barrier.
 */
export function isParallelSafe(step: PlannedStep): boolean {
  if (step.kind === 'lookup') return true;
  if (step.kind === 'tool') return step.call.tool.parallelSafe;
  return false;
}

/**
 * Plans one turn into ordered segments: consecutive parallel-safe steps form a parallel segment,
 * anything else is a barrier that runs alone. No step moves past a barrier, so results and side
 * effects come in the same order as running everything one by one. A parallel run of one step is
 * just sequential, and neighbouring sequential segments merge.
 */
export function planTurn(session: BridgeSession, calls: readonly TurnCall[]): Segment[] {
  const steps = calls.flatMap((call) => stepsOf(session, call));
  const segments: { mode: 'parallel' | 'sequential'; steps: PlannedStep[] }[] = [];
  const pushSequential = (step: PlannedStep) => {
    const last = segments[segments.length - 1];
    if (last?.mode === 'sequential') last.steps.push(step);
    else segments.push({ mode: 'sequential', steps: [step] });
  };
  let run: PlannedStep[] = [];
  const flush = () => {
    if (run.length >= 2) segments.push({ mode: 'parallel', steps: run });
    else if (run.length === 1 && run[0] !== undefined) pushSequential(run[0]);
    run = [];
  };
  for (const step of steps) {
    if (isParallelSafe(step)) run.push(step);
    else {
      flush();
      pushSequential(step);
    }
  }
  flush();
  return segments;
}

/** True when the turn is more than one step and all of it can run at once. */
export function runsFullyParallel(segments: readonly Segment[]): boolean {
  return segments.length === 1 && segments[0]?.mode === 'parallel';
}
