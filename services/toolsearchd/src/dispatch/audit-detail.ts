import { z } from 'zod';
import { compileGlob, type Glob } from '@toolsearch/catalog';
import type { CallEnvelope } from '@toolsearch/proto';

/**
 * Keys whose values the audit never stores, by default: credentials and secrets a call may carry.
 * Case-insensitive `*` wildcards, matched against every key at every depth.
 */
export const DEFAULT_REDACTED_KEYS = [
  '*password*',
  '*passwd*',
  '*secret*',
  '*token*',
  '*api_key*',
  '*apikey*',
  '*credential*',
  '*private_key*',
  'authorization',
  'cookie',
] as const;

/**
 * What the audit record of a call holds beyond its name, digest and outcome: its arguments (off
 * by default: they may hold personal data) and a summary of its result, both with the values of
 * keys matching `redact` replaced. With both, an operator can follow a session from search to
 * describe to call to result.
 */
export const AuditPolicySchema = z
  .object({
    arguments: z.boolean().default(false),
    results: z.boolean().default(true),
    redact: z
      .array(z.string().min(1).max(200))
      .max(100)
      .default([...DEFAULT_REDACTED_KEYS]),
  })
  .strict();
export type AuditPolicy = z.infer<typeof AuditPolicySchema>;

/** Characters of arguments and of a result summary an audit record keeps at most. */
export const AUDIT_ARGUMENTS_CHARS = 2000;
export const AUDIT_RESULT_CHARS = 500;
const REDACTED = '[redacted]';

const compiled = new WeakMap<readonly string[], readonly Glob[]>();
function globsOf(patterns: readonly string[]): readonly Glob[] {
  let globs = compiled.get(patterns);
  if (globs === undefined)
    compiled.set(patterns, (globs = patterns.map((pattern) => compileGlob(pattern, { caseInsensitive: true }))));
  return globs;
}

/** A copy of a JSON value with the values of redacted keys replaced, at every depth. */
export function redacted(value: unknown, patterns: readonly string[]): unknown {
  const globs = globsOf(patterns);
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (typeof node !== 'object' || node === null) return node;
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(node))
      out[key] = globs.some((glob) => glob.matches(key)) ? REDACTED : walk(child);
    return out;
  };
  return walk(value);
}

function capped(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The arguments and result summary an audit record keeps under the policy (absent when off). */
export function auditDetail(
  policy: AuditPolicy,
  args: unknown,
  envelope: CallEnvelope,
): { arguments?: string; result?: string } {
  const detail: { arguments?: string; result?: string } = {};
  if (policy.arguments && args !== undefined)
    detail.arguments = capped(JSON.stringify(redacted(args, policy.redact)) ?? '', AUDIT_ARGUMENTS_CHARS);
  if (policy.results && envelope.status !== 'pending_approval') {
    const summary = envelope.ok
      ? (JSON.stringify(redacted(envelope.data, policy.redact)) ?? 'null')
      : `${envelope.error?.code ?? 'ERROR'}: ${envelope.error?.message ?? ''}`;
    detail.result = capped(summary, AUDIT_RESULT_CHARS);
  }
  return detail;
}
