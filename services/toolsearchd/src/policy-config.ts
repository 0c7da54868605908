import { z } from 'zod';
import { DEFAULT_CALL_POLICY, type CallPolicy } from '@toolsearch/bridge';
import { AuditPolicySchema } from './dispatch/audit-detail';

const PatternSchema = z.string().min(1).max(200);
const Patterns = z.array(PatternSchema).max(1000);

/** One rate limit: at most `limit` calls per `windowMs`, counted per tenant, session or tool. */
export const RateLimitSchema = z
  .object({
    scope: z.enum(['tenant', 'session', 'tool']),
    limit: z.number().int().min(1).max(1_000_000_000),
    windowMs: z.number().int().min(100).max(86_400_000),
    /** Only calls of tools matching these patterns count (all calls when omitted). */
    tools: Patterns.optional(),
  })
  .strict();
export type RateLimit = z.infer<typeof RateLimitSchema>;

/** One external hook: how long the daemon waits for the gateway, and what it does without an answer. */
const HookSettingsSchema = z
  .object({
    timeoutMs: z.number().int().min(10).max(30_000).default(2000),
    /** Without an answer (timeout, no gateway listening, a reply that is not one): refuse the call, or run it. */
    onError: z.enum(['deny', 'allow']).default('deny'),
    /** Whether the hook request carries the arguments (the digest always goes). */
    arguments: z.boolean().default(true),
  })
  .strict();
export type HookSettings = z.infer<typeof HookSettingsSchema>;

/**
 * A tenant's rules for running tools: guardrails (allow/deny), which calls need a human, who may
 * decide, how long a held call waits, rate limits shared by every replica through Redis, and what
 * the audit keeps of each call.
 */
export const TenantPolicySchema = z
  .object({
    allow: Patterns.default([]),
    deny: Patterns.default([]),
    approval: z
      .object({
        highRisk: z.boolean().default(DEFAULT_CALL_POLICY.approval.highRisk),
        destructive: z.boolean().default(DEFAULT_CALL_POLICY.approval.destructive),
        tools: Patterns.default([]),
        exempt: Patterns.default([]),
        /** A held call nobody decided within this time is denied (fail closed). */
        expiryMs: z
          .number()
          .int()
          .min(100)
          .max(7 * 86_400_000)
          .default(600_000),
        /** Identities that may decide. Empty: any identity that is not a session of the tenant. */
        approvers: z.array(z.string().min(1).max(200)).max(1000).default([]),
      })
      .strict()
      .prefault({}),
    rateLimits: z.array(RateLimitSchema).max(100).default([]),
    /** What each call's audit record keeps beyond name, digest and outcome (see audit-detail.ts). */
    audit: AuditPolicySchema.prefault({}),
    /**
     * External hooks served by the tenant's gateway over NATS (`<tenant>.hooks.pre` before a call,
     * `<tenant>.hooks.post` after); absent: none (see dispatch/nats-hooks.adapter.ts).
     */
    hooks: z.object({ pre: HookSettingsSchema.optional(), post: HookSettingsSchema.optional() }).strict().prefault({}),
  })
  .strict();
export type TenantPolicy = z.infer<typeof TenantPolicySchema>;

export function callPolicyOf(policy: TenantPolicy): CallPolicy {
  return policy;
}

/**
 * A tenant's policy: its own (`tenants.<id>.policy`, which replaces the top level as a whole),
 * else the top-level `policy`. Pure.
 */
export function policyFor(
  config: { readonly policy: TenantPolicy; readonly tenants: Readonly<Record<string, { policy?: TenantPolicy }>> },
  tenant: string,
): TenantPolicy {
  return config.tenants[tenant]?.policy ?? config.policy;
}
