import { z } from 'zod';
import { SessionIdSchema, SessionRoleSchema, TenantIdSchema } from './schemas';

/**
 * External call hooks: an operator may have the daemon ask a tenant's gateway about each tool call
 * before it runs (`hooks.pre`: allow, deny with a reason, or rewrite the arguments) and tell it
 * after (`hooks.post`). Served by the gateway, like `exec.core`; asked by the daemon.
 */
const HookCallSchema = z.object({
  tenant: TenantIdSchema,
  session: SessionIdSchema,
  /** The session's role (gateway, subagent, kanban_worker), when known. */
  role: SessionRoleSchema.optional(),
  call_id: z.string(),
  /** The model-facing name of the real tool (never `tool_call`). */
  tool: z.string(),
  original_name: z.string(),
  toolset: z.string(),
  /** sha256 of the canonical arguments. */
  digest: z.string(),
  /** The arguments themselves, when the tenant's hook settings send them. */
  arguments: z.record(z.string(), z.unknown()).optional(),
});

export const PreHookRequestSchema = HookCallSchema;
export type PreHookRequest = z.infer<typeof PreHookRequestSchema>;
/** `allow` runs the call (with `arguments` instead of the model's, when given); `deny` refuses it with `reason`. */
export const PreHookReplySchema = z.object({
  decision: z.enum(['allow', 'deny']),
  reason: z.string().max(1000).optional(),
  arguments: z.record(z.string(), z.unknown()).optional(),
});
export type PreHookReply = z.infer<typeof PreHookReplySchema>;

export const PostHookRequestSchema = HookCallSchema.extend({
  ok: z.boolean(),
  /** The error code when the call failed. */
  error_code: z.string().optional(),
});
export type PostHookRequest = z.infer<typeof PostHookRequestSchema>;

export const HOOKS = {
  pre: {
    template: 'toolsearch.v1.{tenant}.hooks.pre',
    request: PreHookRequestSchema,
    reply: PreHookReplySchema,
    purpose: 'Asked before a tool call runs, when the tenant has a pre-call hook: allow, deny or rewrite.',
  },
  post: {
    template: 'toolsearch.v1.{tenant}.hooks.post',
    request: PostHookRequestSchema,
    reply: z.object({}).loose(),
    purpose: 'Told after a tool call ran, when the tenant has a post-call hook (the reply is not used).',
  },
} as const;
