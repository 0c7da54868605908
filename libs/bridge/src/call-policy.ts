import { createHash } from 'node:crypto';
import type { RoutingRule, SessionTool } from '@toolsearch/catalog';
import { confirmationRule, matchesToolPattern } from './routing';

/**
 * A tenant's rules for running tools, as the dispatcher applies them to the real tool of every
 * call (never to `tool_call`). Patterns match the model-facing or original name with `*`
 * wildcards, or `server:<label>`.
 */
export interface CallPolicy {
  /** When non-empty, only tools matching one of these may run. */
  readonly allow: readonly string[];
  /** Tools matching one of these never run. Deny wins over allow. */
  readonly deny: readonly string[];
  readonly approval: {
    /** Tools with risk `high` need a human. */
    readonly highRisk: boolean;
    /** MCP tools annotated `destructiveHint: true` need a human. */
    readonly destructive: boolean;
    /** Further tools that need a human. */
    readonly tools: readonly string[];
    /** Tools that never need a human, whatever their risk or annotations (the tenant's override). */
    readonly exempt: readonly string[];
  };
}

export const DEFAULT_CALL_POLICY: CallPolicy = {
  allow: [],
  deny: [],
  approval: { highRisk: true, destructive: true, tools: [], exempt: [] },
};

export type GuardrailVerdict = { readonly allowed: true } | { readonly allowed: false; readonly reason: string };

/** Whether the tenant lets this tool run at all. */
export function guardrailVerdict(policy: CallPolicy, tool: SessionTool): GuardrailVerdict {
  const denied = policy.deny.find((pattern) => matchesToolPattern(tool, pattern));
  if (denied !== undefined) return { allowed: false, reason: `the tenant's policy denies tools matching '${denied}'` };
  if (policy.allow.length > 0 && !policy.allow.some((pattern) => matchesToolPattern(tool, pattern))) {
    return { allowed: false, reason: "the tenant's policy allows only listed tools, and this is not one of them" };
  }
  return { allowed: true };
}

/**
 * Why this call needs a human decision, or undefined when it does not. Exemptions win; then an
 * explicit pattern, a routing `confirm` rule, risk `high`, and `destructiveHint`.
 */
export function approvalReason(
  policy: CallPolicy,
  tool: SessionTool,
  routing: readonly RoutingRule[] = [],
): string | undefined {
  if (policy.approval.exempt.some((pattern) => matchesToolPattern(tool, pattern))) return undefined;
  const pattern = policy.approval.tools.find((candidate) => matchesToolPattern(tool, candidate));
  if (pattern !== undefined) return `the tenant requires approval for tools matching '${pattern}'`;
  const rule = confirmationRule(routing, tool);
  if (rule !== undefined) return 'a routing rule asks for confirmation before this tool runs';
  if (policy.approval.highRisk && tool.risk === 'high') return 'the tool is marked high risk';
  if (policy.approval.destructive && tool.definition.annotations?.destructiveHint === true) {
    return 'the tool says it may destroy or overwrite data (destructiveHint)';
  }
  return undefined;
}

/** JSON with object keys sorted at every level: equal values give equal text. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item)).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, item]) => item !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
}

/** The digest a decision binds to: sha256 of the arguments' canonical JSON, in hex. */
export function argumentsDigest(args: Readonly<Record<string, unknown>>): string {
  return createHash('sha256').update(canonicalJson(args)).digest('hex');
}
