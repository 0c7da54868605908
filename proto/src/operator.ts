import { z } from 'zod';
import { ToolsetIdSchema } from '@toolsearch/catalog';
import {
  GrantSchema,
  ModelSpecSchema,
  SessionIdSchema,
  SessionRoleSchema,
  SurfaceSummarySchema,
  TenantIdSchema,
} from './schemas';

/**
 * What operators read: the tenant's sessions, toolsets and recent activity. These subjects sit
 * under the tenant's own prefix like every other, so a tenant's credentials see only its own.
 */

export const SessionsListRequestSchema = z.object({
  /** Only sessions of this role. */
  role: SessionRoleSchema.optional(),
  /** At most this many (the newest first). */
  limit: z.number().int().min(1).max(10_000).default(1000),
});
export const SessionSummarySchema = z.object({
  id: SessionIdSchema,
  role: SessionRoleSchema,
  parent: SessionIdSchema.optional(),
  toolsets: z.array(ToolsetIdSchema),
  context_length: z.number().int(),
  created_at: z.number().int(),
});
export type SessionSummary = z.infer<typeof SessionSummarySchema>;
export const SessionsListReplySchema = z.object({
  ok: z.literal(true),
  sessions: z.array(SessionSummarySchema),
  /** Open sessions of the tenant, including those past `limit`. */
  total: z.number().int(),
});

export const SessionShowRequestSchema = z.object({}).loose();
export const SessionShowReplySchema = z.object({
  ok: z.literal(true),
  session: z.object({
    id: SessionIdSchema,
    tenant: TenantIdSchema,
    role: SessionRoleSchema,
    parent: SessionIdSchema.optional(),
    grant: GrantSchema,
    model: ModelSpecSchema,
    created_at: z.number().int(),
    children: z.array(SessionIdSchema),
    core_tools: z.array(z.string()),
  }),
  /** The session's current surface, as the next assemble would give it. */
  surface: SurfaceSummarySchema,
});

export const ToolsetsListRequestSchema = z.object({}).loose();
export const ToolsetSummarySchema = z.object({
  id: ToolsetIdSchema,
  kind: z.string(),
  label: z.string().optional(),
  tools: z.number().int(),
  revision: z.number().int(),
  /** Set while the toolset's server is away (an MCP server reconnecting). */
  unavailable: z.string().optional(),
});
export type ToolsetSummary = z.infer<typeof ToolsetSummarySchema>;
export const ToolsetsListReplySchema = z.object({ ok: z.literal(true), toolsets: z.array(ToolsetSummarySchema) });

export const AuditRecentRequestSchema = z.object({
  limit: z.number().int().min(1).max(10_000).default(50),
  session: SessionIdSchema.optional(),
});
export const AuditRecordSchema = z.object({
  tenant: TenantIdSchema,
  session: z.string(),
  call_id: z.string(),
  tool: z.string(),
  toolset: z.string(),
  digest: z.string(),
  duration_ms: z.number(),
  retries: z.number().int(),
  outcome: z.string(),
  approval_id: z.string(),
  at: z.number().int(),
  /** The call's arguments as JSON, redacted, when the tenant's audit policy keeps them. */
  arguments: z.string().optional(),
  /** A summary of the result: redacted JSON, or the error code and message (when kept). */
  result: z.string().optional(),
  /** Vetting records (`outcome` `vetting:<decision>`): the pinned digest before the change. */
  digest_before: z.string().optional(),
  /** Vetting records: the finding codes, or who accepted. */
  detail: z.string().optional(),
});
export type AuditRecord = z.infer<typeof AuditRecordSchema>;
export const AuditRecentReplySchema = z.object({ ok: z.literal(true), records: z.array(AuditRecordSchema) });

/** One tenant's quotas: how much of each it uses now, and its limit (for operators). */
export const TenantShowRequestSchema = z.object({}).loose();
export const QuotaUsageSchema = z.object({ used: z.number(), limit: z.number() });
export const TenantShowReplySchema = z.object({
  ok: z.literal(true),
  tenant: TenantIdSchema,
  quotas: z.record(z.string(), QuotaUsageSchema),
});
