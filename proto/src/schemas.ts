import { z } from 'zod';
import { ToolDefinitionSchema, ToolsetIdSchema, ToolsetSchema } from '@toolsearch/catalog';

export const TenantIdSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'tenant ids are 1–63 of a-z, 0-9 and -, starting with a letter or digit');
export const SessionIdSchema = z
  .string()
  .regex(/^s-[A-Za-z0-9_-]{20,64}$/, 'session ids are issued by the daemon (s-…)');

export const SessionRoleSchema = z.enum(['gateway', 'subagent', 'kanban_worker']);
export type SessionRole = z.infer<typeof SessionRoleSchema>;

/** What a session may see and call: whole toolsets, optionally narrowed by tool-name patterns. */
export const GrantSchema = z.object({
  toolsets: z.array(ToolsetIdSchema).max(1000),
  /** Only tools whose original or model-facing name matches one of these patterns (`*` wildcards). */
  allow: z.array(z.string().min(1).max(200)).max(1000).optional(),
  /** Never tools whose name matches one of these patterns. */
  deny: z.array(z.string().min(1).max(200)).max(1000).optional(),
});
export type Grant = z.infer<typeof GrantSchema>;

export const ModelSpecSchema = z.object({
  /** The model's context window in tokens; 0 when unknown. */
  contextLength: z.number().int().min(0).max(100_000_000),
  encoding: z.enum(['o200k_base', 'cl100k_base']).optional(),
});
export type ModelSpec = z.infer<typeof ModelSpecSchema>;

export const ToolFormatSchema = z.enum(['openai', 'anthropic', 'mcp']);

export const OpenSessionRequestSchema = z.object({
  role: SessionRoleSchema.default('gateway'),
  parent: SessionIdSchema.optional(),
  grant: GrantSchema,
  model: ModelSpecSchema,
  /** The `tools.tool_search` block (any shape: it is parsed leniently, with warnings). */
  config: z.unknown().optional(),
  /** The gateway's own core tools, loaded directly (never deferred unless configured). */
  coreTools: z.array(ToolDefinitionSchema).max(500).optional(),
});
export type OpenSessionRequest = z.input<typeof OpenSessionRequestSchema>;

export const SessionInfoSchema = z.object({
  id: SessionIdSchema,
  tenant: TenantIdSchema,
  role: SessionRoleSchema,
  parent: SessionIdSchema.optional(),
  grant: GrantSchema,
  model: ModelSpecSchema,
  warnings: z.array(z.string()),
});
export type SessionInfo = z.infer<typeof SessionInfoSchema>;

export const OpenSessionReplySchema = z.object({
  ok: z.literal(true),
  session: SessionInfoSchema,
  /**
   * A bearer token for this session's MCP endpoint (`/mcp`). Shown once; the daemon keeps only its
   * digest. It stops working when the session closes.
   */
  token: z.string(),
});

export const AssembleRequestSchema = z.object({ format: ToolFormatSchema.default('openai') });
export const AssembleReplySchema = z.object({
  ok: z.literal(true),
  tier: z.union([z.literal(0), z.literal(1), z.literal(2)]),
  listing_form: z.enum(['full', 'names', 'mixed', 'groups', 'none']),
  activated: z.boolean(),
  mode: z.enum(['off', 'on', 'budget']),
  format: ToolFormatSchema,
  tools: z.array(z.record(z.string(), z.unknown())),
  visible_count: z.number().int(),
  deferred_count: z.number().int(),
  /** Found tools loaded directly this turn (`tool_search.keep_found`), oldest first. */
  kept: z.array(z.string()).default([]),
  deferred_tokens: z.number().int(),
  listing_tokens: z.number().int(),
  budget_tokens: z.number().int(),
  tools_tokens: z.number().int(),
  hash: z.string(),
});
export type AssembleReply = z.infer<typeof AssembleReplySchema>;
/** A session's surface without the tool array itself: tier, listing form, counts, tokens, hash. */
export const SurfaceSummarySchema = AssembleReplySchema.omit({ ok: true, format: true, tools: true });
export type SurfaceSummary = z.infer<typeof SurfaceSummarySchema>;

/** Bridge lookups take the model's arguments as they are; the bridge validates them itself. */
export const SearchRequestSchema = z.object({
  queries: z.unknown(),
  limit: z.unknown().optional(),
  /** For operators: add why each match ranked where it did (never part of what the model sees). */
  explain: z.boolean().optional(),
});
export const SearchReplySchema = z.object({
  ok: z.literal(true),
  result: z.record(z.string(), z.unknown()),
  explain: z.array(z.record(z.string(), z.unknown())).optional(),
});
export const DescribeRequestSchema = z.object({ names: z.unknown() });
export const DescribeReplySchema = z.object({ ok: z.literal(true), result: z.record(z.string(), z.unknown()) });

export const CloseRequestSchema = z.object({}).loose();
export const CloseReplySchema = z.object({ ok: z.literal(true), closed: z.array(SessionIdSchema) });

export const ToolsetPutRequestSchema = z.object({ toolset: ToolsetSchema });
export const ToolsetPutReplySchema = z.object({ ok: z.literal(true), id: ToolsetIdSchema, revision: z.number().int() });
export const ToolsetDeleteRequestSchema = z.object({ id: ToolsetIdSchema });
export const ToolsetDeleteReplySchema = z.object({ ok: z.literal(true), id: ToolsetIdSchema, deleted: z.boolean() });

/** Published when a toolset of the tenant changed (registry watch). */
export const ToolsetChangedEventSchema = z.object({
  tenant: TenantIdSchema,
  toolset: ToolsetIdSchema,
  revision: z.number().int(),
  deleted: z.boolean(),
});
export type ToolsetChangedEvent = z.infer<typeof ToolsetChangedEventSchema>;

/** Published when a session's surface changed (its hash), after re-assembly. */
export const TierEventSchema = z.object({
  tenant: TenantIdSchema,
  session: SessionIdSchema,
  tier: z.union([z.literal(0), z.literal(1), z.literal(2)]),
  listing_form: z.enum(['full', 'names', 'mixed', 'groups', 'none']),
  deferred_count: z.number().int(),
  listing_tokens: z.number().int(),
  hash: z.string(),
});
export type TierEvent = z.infer<typeof TierEventSchema>;

/** How the daemon reaches an MCP server. Secrets in `env` and `headers` never appear in logs or replies. */
export const McpTransportSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('stdio'),
    command: z.string().min(1).max(4096),
    args: z.array(z.string().max(4096)).max(256).default([]),
    env: z.record(z.string(), z.string()).optional(),
    cwd: z.string().max(4096).optional(),
  }),
  z.object({
    type: z.literal('http'),
    url: z.url(),
    headers: z.record(z.string(), z.string()).optional(),
  }),
]);

export const McpServerNameSchema = z
  .string()
  // No dots: the name is a token of NATS subjects (the replicas' relay of the server's calls).
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, 'server names are 1–64 of A-Z a-z 0-9 _ - (no dots)');

export const McpAttachRequestSchema = z.object({
  name: McpServerNameSchema,
  transport: McpTransportSchema,
  supports_parallel_tool_calls: z.boolean().default(false),
  /** Risk for this server's tools that declare none (overrides what the annotations suggest). */
  risk: z.enum(['low', 'medium', 'high']).optional(),
});
export type McpAttachRequest = z.input<typeof McpAttachRequestSchema>;
export const McpAttachReplySchema = z.object({
  ok: z.literal(true),
  toolset: z.string(),
  tools: z.number().int(),
  revision: z.number().int(),
});
export const McpDetachRequestSchema = z.object({ name: McpServerNameSchema });
export const McpDetachReplySchema = z.object({ ok: z.literal(true), toolset: z.string(), detached: z.boolean() });
