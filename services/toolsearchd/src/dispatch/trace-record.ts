import { BRIDGE_ERROR_CODES, type PlannedStep } from '@toolsearch/bridge';
import type { CallEnvelope } from '@toolsearch/proto';
import type { TraceRecord } from './audit.adapter';
import { auditDetail, type AuditPolicy } from './audit-detail';

/** What of a turn's context its audit records need. */
interface TraceContext {
  readonly tenant: string;
  readonly session: string;
  readonly policy: { readonly audit: AuditPolicy };
}

/** Codes that mean the call reached for something outside the session: audited as `blocked`. */
const SCOPE_CODES = new Set<string>([BRIDGE_ERROR_CODES.NOT_IN_SESSION, BRIDGE_ERROR_CODES.UNKNOWN_TOOL]);

/** The audit record of one step of a turn: what was called, how it ended, and (by policy) its detail. */
export function traceOf(
  context: TraceContext,
  step: PlannedStep,
  envelope: CallEnvelope,
  durationMs: number,
  retries: number,
  digest = '',
): TraceRecord {
  const args = step.kind === 'tool' ? step.call.arguments : step.kind === 'lookup' ? step.arguments : undefined;
  const tool = step.kind === 'tool' ? step.call.tool : undefined;
  const outcome =
    envelope.status === 'pending_approval'
      ? 'pending_approval'
      : envelope.ok
        ? 'ok'
        : step.kind === 'error' && SCOPE_CODES.has(envelope.error?.code ?? '')
          ? `blocked:${envelope.error?.code ?? ''}`
          : (envelope.error?.code ?? 'ERROR');
  return {
    tenant: context.tenant,
    session: context.session,
    callId: step.callId,
    tool: tool?.name ?? (step.kind === 'lookup' ? step.name : step.kind === 'error' ? (step.attempted ?? '') : ''),
    toolset: tool?.toolset ?? (step.kind === 'lookup' ? 'bridge' : ''),
    digest,
    durationMs,
    retries,
    outcome,
    approvalId: envelope.approval_id ?? '',
    at: Date.now(),
    ...auditDetail(context.policy.audit, args, envelope),
  };
}
