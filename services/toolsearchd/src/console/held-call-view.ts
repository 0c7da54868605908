import type { Approval } from '@toolsearch/proto';
import { redacted } from '../dispatch/audit-detail';
import type { ConsoleBackend } from './console-backend';

/** Characters of arguments and of a result the console shows at most (the rest is cut, marked). */
const MAX_SHOWN_CHARS = 8000;

/** A held call with everything an approver needs to judge it, ready to render. */
export interface HeldCallView {
  readonly id: string;
  readonly tool: string;
  readonly source: string;
  readonly originalName: string;
  /** The arguments as JSON, values of keys matching the tenant's redaction patterns replaced. */
  readonly arguments: string;
  readonly digest: string;
  readonly session: string;
  /** Undefined when the session has closed since (the call still runs once approved). */
  readonly sessionInfo: { role: string; parent: string | undefined; gateway: string | undefined } | undefined;
  readonly requestedAt: number;
  readonly expiresAt: number;
  /** The tool's declared risk (its own, else its toolset's), or undefined when neither declares one. */
  readonly risk: string | undefined;
  /** MCP hints the tool declares (destructive, read-only, …). */
  readonly hints: readonly string[];
  /** Why it was held (the policy rule that matched). */
  readonly why: string;
  readonly state: Approval['state'];
  readonly decision: Approval['decision'];
  /** The outcome once it ran (or was refused): ok or the error code, and what it returned. */
  readonly result: { ok: boolean; text: string } | undefined;
}

function shown(value: unknown, patterns: readonly string[]): string {
  const text = JSON.stringify(redacted(value, patterns), null, 2) ?? 'null';
  return text.length > MAX_SHOWN_CHARS ? `${text.slice(0, MAX_SHOWN_CHARS - 1)}…` : text;
}

/** Builds the view of one held call: the stored record, its session, and its tool's declarations. */
export async function heldCallView(backend: ConsoleBackend, approval: Approval): Promise<HeldCallView> {
  const { tenant } = approval;
  const patterns = backend.policy(tenant).audit.redact;
  const descriptor = await backend.session(tenant, approval.session);
  const held = backend.toolsets(tenant).get(approval.toolset)?.toolset;
  const definition = held?.tools.find((tool) => tool.name === approval.original_name);
  const annotations = definition?.annotations ?? {};
  const hints = (['destructiveHint', 'readOnlyHint', 'idempotentHint', 'openWorldHint'] as const)
    .filter((hint) => annotations[hint] === true)
    .map((hint) => hint.replace(/Hint$/, ''));
  const result = approval.result;
  return {
    id: approval.id,
    tool: approval.tool,
    source: held?.label ?? approval.toolset,
    originalName: approval.original_name,
    arguments: shown(approval.arguments, patterns),
    digest: approval.digest,
    session: approval.session,
    sessionInfo:
      descriptor === undefined
        ? undefined
        : { role: descriptor.role, parent: descriptor.parent, gateway: descriptor.owner },
    requestedAt: approval.requested_at,
    expiresAt: approval.expires_at,
    risk: definition?.risk ?? held?.risk,
    hints,
    why: approval.reason,
    state: approval.state,
    decision: approval.decision,
    result:
      result === undefined
        ? undefined
        : result.ok
          ? { ok: true, text: shown(result.data, patterns) }
          : { ok: false, text: `${result.error?.code ?? 'ERROR'}: ${result.error?.message ?? ''}` },
  };
}
