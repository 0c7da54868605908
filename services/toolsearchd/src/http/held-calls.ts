import type { Approval, CallEnvelope } from '@toolsearch/proto';

/** How an MCP request waits for its held call: told every few seconds while it waits, stopped by the client. */
export interface HeldCallFollow {
  onWaiting(elapsedMs: number): Promise<void>;
  readonly signal?: AbortSignal;
}

/** How often a waiting request asks Redis about its held call, and tells its client it still waits. */
const POLL_MS = 500;
const TICK_MS = 5000;

/**
 * The approval id of a call that is waiting for a person, when the envelope is one such call (a
 * direct call, or `tool_call` of one tool); undefined otherwise (several calls are not followed).
 */
export function heldApprovalId(envelope: CallEnvelope): string | undefined {
  if (envelope.status !== 'pending_approval') return undefined;
  if (envelope.approval_id !== undefined) return envelope.approval_id;
  const nested = (envelope.data as { results?: unknown } | null | undefined)?.results;
  if (!Array.isArray(nested) || nested.length !== 1) return undefined;
  return (nested[0] as CallEnvelope | undefined)?.approval_id;
}

/**
 * Waits up to `waitMs` for a held call's outcome: the call's own result once an approver let it
 * run, or the refusal when one denied it or nobody decided in time. Undefined when the wait ends
 * first (or the client stopped asking).
 */
export async function followHeld(
  approval: () => Promise<Approval | undefined>,
  waitMs: number,
  follow: HeldCallFollow,
): Promise<CallEnvelope | undefined> {
  const started = Date.now();
  let told = started;
  while (Date.now() - started < waitMs && follow.signal?.aborted !== true) {
    await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS, waitMs - (Date.now() - started))));
    const current = await approval();
    if (current?.result !== undefined) return current.result;
    if (current === undefined) return undefined;
    if (Date.now() - told >= TICK_MS) {
      told = Date.now();
      await follow.onWaiting(told - started).catch(() => undefined);
    }
  }
  return undefined;
}
