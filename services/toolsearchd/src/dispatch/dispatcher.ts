import {
  approvalReason,
  argumentsDigest,
  BRIDGE_ERROR_CODES,
  checkArguments,
  errorPayload,
  guardrailVerdict,
  handleToolDescribe,
  handleToolSearch,
  planTurn,
  type PlannedStep,
  type TurnCall,
  type UnwrappedCall,
} from '@toolsearch/bridge';
import type { SessionTool } from '@toolsearch/catalog';
import { CALL_ERROR_CODES, type ActivityEvent, type CallEnvelope, type DispatchResult } from '@toolsearch/proto';
import { searchCharged } from '../search-cost';
import type { UsageLearning } from '../usage-learning';
import type { AuditLog, TraceRecord } from './audit.adapter';
import type { DispatchHooks, HookCall, PreCallVerdict, TurnContext } from './turn-types';
import { auditDetail, AuditPolicySchema } from './audit-detail';
import { execEnvelope } from './exec-envelope';
import { foundNames, type StepResult } from './found-names';
import { traceOf } from './trace-record';
import type { Approvals, HeldCall } from './approvals.adapter';
import type { ExecOutcome, Executors } from './executors.adapter';
import type { RateLimiter } from './rate-limiter.adapter';

export interface DispatcherDeps {
  readonly executors: Executors;
  readonly audit: AuditLog;
  readonly limiter: RateLimiter;
  readonly approvals: Approvals;
  readonly hooks: readonly DispatchHooks[];
  readonly publishActivity: (event: ActivityEvent) => void;
  readonly settings: { concurrency: number; timeoutMs: number; retries: number };
  /** Whether the tenant may hold one more call: undefined, or why not (its held-calls quota). */
  readonly admitHold?: (tenant: string) => Promise<string | undefined>;
  /** The most calls the tenant may hold at once, enforced where the call is stored. */
  readonly holdLimit?: (tenant: string) => number;
  /** Told the tools a turn described or ran successfully, in order (for `keep_found`). */
  readonly noteFound?: (tenant: string, session: string, names: readonly string[]) => void;
  /** Learning from use: ranks searches of tenants that opted in, and learns from their turns. */
  readonly usage?: Pick<UsageLearning, 'signal' | 'noteTurn' | 'noteCalled'>;
  /** Counts what a `tool_search` cost beyond its request's weight against the tenant (`search-cost.ts`). */
  readonly charge?: (tenant: string, weight: number) => void;
}

/** What hooks (and execution) see of a call of this turn. */
function hookCall(
  context: TurnContext,
  callId: string,
  tool: SessionTool,
  args: Readonly<Record<string, unknown>>,
): HookCall {
  const { tenant, session, role } = context;
  return { tenant, session, ...(role !== undefined ? { role } : {}), callId, tool, arguments: args };
}

function failure(code: string, message: string, data: unknown = null): CallEnvelope {
  return { ok: false, data, error: { code, message }, status: 'done' };
}

/**
 * Runs one turn's calls. Bridge calls are unwrapped by the core planner; consecutive parallel-safe
 * steps run together (bounded), anything else alone, in order. Each tool step passes pre-call
 * hooks, guardrails (allow/deny, rate limits), the approval gate, execution (timeout, retries for
 * read-only or idempotent tools), and post-call hooks. Every step leaves a trace record; tools get
 * start and finish activity events under their real names. Once a call of the turn is held for
 * approval, later steps that are not parallel-safe do not run (their order relative to it cannot
 * be kept), and say so.
 */
export class Dispatcher {
  readonly #deps: DispatcherDeps;

  constructor(deps: DispatcherDeps) {
    this.#deps = deps;
  }

  async dispatch(context: TurnContext, calls: readonly TurnCall[], waitMs = 0): Promise<DispatchResult[]> {
    const segments = planTurn(context.bridge, calls);
    const results: StepResult[] = [];
    const traces: TraceRecord[] = [];
    const deadline = Date.now() + waitMs;
    let blockedBy: string | undefined;
    for (const segment of segments) {
      if (segment.mode === 'parallel') {
        const outcomes = await this.#bounded(segment.steps, (step) => this.#step(context, step, traces, deadline));
        segment.steps.forEach((step, index) => results.push({ step, envelope: outcomes[index] as CallEnvelope }));
        continue;
      }
      for (const step of segment.steps) {
        let envelope: CallEnvelope;
        if (blockedBy !== undefined && step.kind === 'tool') {
          envelope = failure(
            'NOT_RUN',
            `Not run: call '${blockedBy}' earlier in this turn is waiting for approval, and this call must not overtake it. Call it again once that one is decided.`,
          );
          traces.push(traceOf(context, step, envelope, 0, 0));
        } else envelope = await this.#step(context, step, traces, deadline);
        if (envelope.status === 'pending_approval') blockedBy ??= step.callId;
        results.push({ step, envelope });
      }
    }
    await this.#deps.audit.append(traces);
    const found = this.#deps.noteFound === undefined ? [] : foundNames(results);
    if (found.length > 0) this.#deps.noteFound?.(context.tenant, context.session, found);
    this.#deps.usage?.noteTurn(context.tenant, context.session, results);
    return this.#byCall(calls, results);
  }

  /** Groups step results back into one result per model call, in call order. */
  #byCall(calls: readonly TurnCall[], results: readonly StepResult[]): DispatchResult[] {
    return calls.map((call) => {
      const mine = results.filter((result) => result.step.callId === call.id);
      const unwrapped =
        mine.length > 0 && mine.every((result) => result.step.kind !== 'lookup') && call.name === 'tool_call';
      if (!unwrapped || mine.length === 0) {
        const only = mine[0]?.envelope ?? failure('INTERNAL', 'the call produced no result');
        return { id: call.id, name: call.name, ...only };
      }
      const entries = mine.map((result) => result.envelope);
      const pending = entries.some((entry) => entry.status === 'pending_approval');
      const ok = entries.every((entry) => entry.ok);
      return {
        id: call.id,
        name: call.name,
        ok,
        data: { results: entries },
        error: ok
          ? null
          : {
              code: pending ? CALL_ERROR_CODES.PENDING_APPROVAL : 'PARTIAL_FAILURE',
              message: pending
                ? 'Some calls are waiting for approval; see data.results.'
                : 'Some calls failed; see data.results.',
            },
        status: pending ? 'pending_approval' : 'done',
      };
    });
  }

  async #bounded<T, R>(items: readonly T[], run: (item: T) => Promise<R>): Promise<R[]> {
    const results = new Array<R>(items.length);
    let next = 0;
    const lanes = Array.from({ length: Math.min(this.#deps.settings.concurrency, items.length) }, async () => {
      while (next < items.length) {
        const index = next;
        next += 1;
        results[index] = await run(items[index] as T);
      }
    });
    await Promise.all(lanes);
    return results;
  }

  #chargeOf(tenant: string): ((weight: number) => void) | undefined {
    const charge = this.#deps.charge;
    return charge === undefined ? undefined : (weight) => charge(tenant, weight);
  }

  async #step(context: TurnContext, step: PlannedStep, traces: TraceRecord[], deadline: number): Promise<CallEnvelope> {
    const started = performance.now();
    if (step.kind === 'error') {
      const { error: message, code } = errorPayload(step.error);
      const envelope = failure(String(code), String(message));
      traces.push(traceOf(context, step, envelope, 0, 0));
      return envelope;
    }
    if (step.kind === 'lookup') {
      const outcome =
        step.name === 'tool_search'
          ? searchCharged(context.bridge.engine, this.#chargeOf(context.tenant), () =>
              handleToolSearch(context.bridge, step.arguments, {
                routingBudget: context.routingBudget,
                usage: this.#deps.usage?.signal(context.tenant),
              }),
            )
          : handleToolDescribe(context.bridge, step.arguments);
      const envelope: CallEnvelope = outcome.ok
        ? { ok: true as const, data: outcome.result, error: null, status: 'done' }
        : failure(String(errorPayload(outcome.error).code), String(errorPayload(outcome.error).error));
      traces.push(traceOf(context, step, envelope, performance.now() - started, 0));
      return envelope;
    }
    const { envelope, retries, digest } = await this.#tool(context, step.callId, step.call, deadline);
    traces.push(traceOf(context, step, envelope, performance.now() - started, retries, digest));
    return envelope;
  }

  async #tool(
    context: TurnContext,
    callId: string,
    call: UnwrappedCall,
    deadline: number,
  ): Promise<{ envelope: CallEnvelope; retries: number; digest: string }> {
    const { tool } = call;
    let args = call.arguments;
    // 1. Pre-call hooks: may block, may rewrite (rewritten arguments are checked again).
    for (const hook of this.#deps.hooks) {
      if (hook.before === undefined) continue;
      let verdict: PreCallVerdict;
      try {
        verdict = await hook.before(hookCall(context, callId, tool, args));
      } catch (error) {
        verdict = { block: `a pre-call hook failed: ${(error as Error).message}` };
      }
      if (verdict === undefined) continue;
      if ('block' in verdict) {
        return {
          envelope: failure(CALL_ERROR_CODES.BLOCKED_BY_HOOK, verdict.block),
          retries: 0,
          digest: argumentsDigest(args),
        };
      }
      const check = checkArguments(tool.name, tool.definition.inputSchema, verdict.arguments);
      if (!check.ok) {
        return {
          envelope: failure(
            BRIDGE_ERROR_CODES.INVALID_ARGUMENTS,
            `a pre-call hook produced invalid arguments: ${check.problem.message}`,
          ),
          retries: 0,
          digest: argumentsDigest(verdict.arguments),
        };
      }
      args = check.arguments;
    }
    const digest = argumentsDigest(args);
    // 2. Guardrails.
    const verdict = guardrailVerdict(context.policy, tool);
    if (!verdict.allowed) {
      return {
        envelope: failure(CALL_ERROR_CODES.BLOCKED_BY_POLICY, `'${tool.name}' may not run: ${verdict.reason}.`),
        retries: 0,
        digest,
      };
    }
    const rate = await this.#deps.limiter.check(context.policy.rateLimits, {
      tenant: context.tenant,
      session: context.session,
      tool,
    });
    if (!rate.allowed) return { envelope: failure(CALL_ERROR_CODES.RATE_LIMITED, rate.message), retries: 0, digest };
    // 3. Approval gate.
    const reason = approvalReason(context.policy, tool, context.routing);
    if (reason !== undefined) {
      const refused = await this.#deps.admitHold?.(context.tenant);
      if (refused !== undefined)
        return { envelope: failure(CALL_ERROR_CODES.QUOTA_EXCEEDED, refused), retries: 0, digest };
      const held = await this.#deps.approvals.hold(
        {
          tenant: context.tenant,
          session: context.session,
          call_id: callId,
          tool: tool.name,
          toolset: tool.toolset,
          original_name: tool.originalName,
          arguments: args,
          digest,
          reason,
          requester: context.session,
        },
        context.policy.approval.expiryMs,
        this.#deps.holdLimit?.(context.tenant),
      );
      // Another lane or replica took the last place between the check above and the hold.
      if (held === undefined)
        return {
          envelope: failure(
            CALL_ERROR_CODES.QUOTA_EXCEEDED,
            (await this.#deps.admitHold?.(context.tenant)) ?? "quota 'heldApprovals' reached",
          ),
          retries: 0,
          digest,
        };
      const waitFor = deadline - Date.now();
      if (waitFor > 0) {
        const done = await this.#deps.approvals.waitForResult(context.tenant, held.id, waitFor);
        if (done?.result !== undefined) return { envelope: done.result, retries: 0, digest };
      }
      return {
        envelope: {
          ok: false,
          data: null,
          error: {
            code: CALL_ERROR_CODES.PENDING_APPROVAL,
            message: `'${tool.name}' needs a human's approval (${reason}). It runs once approved; its result arrives separately.`,
          },
          status: 'pending_approval',
          approval_id: held.id,
          tool: tool.name,
        },
        retries: 0,
        digest,
      };
    }
    // 4 and 5. Execution and post-call hooks.
    const run = await this.execute(hookCall(context, callId, tool, args));
    return { ...run, digest };
  }

  /** Runs a call that has passed every gate (also used for approved calls): execution, post hooks, activity. */
  async execute(call: HookCall & { approvalId?: string }): Promise<{ envelope: CallEnvelope; retries: number }> {
    const { tool } = call;
    const started = Date.now();
    const activity = (phase: 'start' | 'finish', extra: Partial<ActivityEvent> = {}) =>
      this.#deps.publishActivity({
        tenant: call.tenant,
        session: call.session,
        call_id: call.callId,
        tool: tool.name,
        phase,
        at: Date.now(),
        ...(call.approvalId !== undefined ? { approval_id: call.approvalId } : {}),
        ...extra,
      });
    activity('start');
    const retryable =
      tool.definition.annotations?.readOnlyHint === true || tool.definition.annotations?.idempotentHint === true;
    let retries = 0;
    let outcome: ExecOutcome;
    for (;;) {
      outcome = await this.#deps.executors.run({
        tenant: call.tenant,
        session: call.session,
        callId: call.callId,
        tool,
        arguments: { ...call.arguments },
        timeoutMs: this.#deps.settings.timeoutMs,
        ...(call.approvalId !== undefined ? { approvalId: call.approvalId } : {}),
      });
      if (outcome.ok || outcome.error.code !== CALL_ERROR_CODES.NO_EXECUTOR || !retryable) break;
      if (retries >= this.#deps.settings.retries) break;
      retries += 1;
      await new Promise((resolve) => setTimeout(resolve, 50 * retries));
    }
    let envelope: CallEnvelope = { ...execEnvelope(outcome), tool: tool.name };
    for (const hook of this.#deps.hooks) {
      if (hook.after === undefined) continue;
      try {
        envelope = (await hook.after(call, envelope)) ?? envelope;
      } catch (error) {
        envelope = failure(CALL_ERROR_CODES.BLOCKED_BY_HOOK, `a post-call hook failed: ${(error as Error).message}`);
      }
    }
    activity('finish', {
      outcome: envelope.ok ? 'ok' : (envelope.error?.code ?? 'ERROR'),
      duration_ms: Date.now() - started,
    });
    return { envelope, retries };
  }

  /** Runs an approved held call on the session's current surface (the tool must still be in its grant). */
  async runApproved(context: TurnContext | undefined, held: HeldCall): Promise<CallEnvelope> {
    const tool = context?.bridge.table.byName.get(held.tool);
    const started = performance.now();
    let envelope: CallEnvelope;
    let retries = 0;
    if (context === undefined || tool === undefined || tool.toolset !== held.toolset) {
      envelope = failure(
        CALL_ERROR_CODES.SESSION_GONE,
        `'${held.tool}' was approved, but its session closed or the tool left the session's grant, so it did not run.`,
      );
    } else {
      ({ envelope, retries } = await this.execute({
        tenant: held.tenant,
        session: held.session,
        callId: held.call_id,
        tool,
        arguments: held.arguments,
        approvalId: held.id,
      }));
    }
    await this.#deps.audit.append([
      {
        tenant: held.tenant,
        session: held.session,
        callId: held.call_id,
        tool: held.tool,
        toolset: held.toolset,
        digest: held.digest,
        durationMs: performance.now() - started,
        retries,
        outcome: envelope.ok ? 'ok' : (envelope.error?.code ?? 'ERROR'),
        approvalId: held.id,
        at: Date.now(),
        ...auditDetail(context?.policy.audit ?? AuditPolicySchema.parse({}), held.arguments, envelope),
      },
    ]);
    if (envelope.ok) {
      this.#deps.noteFound?.(held.tenant, held.session, [held.tool]);
      this.#deps.usage?.noteCalled(held.tenant, held.session, held.tool);
    }
    return envelope;
  }
}
