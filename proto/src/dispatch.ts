import { z } from 'zod';
import { GrantSchema, ModelSpecSchema, SessionIdSchema, SessionInfoSchema, TenantIdSchema } from './schemas';
import { ToolDefinitionSchema } from '@toolsearch/catalog';

/** Ids the daemon gives held calls. */
export const ApprovalIdSchema = z
  .string()
  .regex(/^a-[A-Za-z0-9_-]{16,64}$/, 'approval ids are issued by the daemon (a-…)');

/** Every executed (or refused) call comes back in this one shape. */
export const CallErrorSchema = z.object({ code: z.string(), message: z.string() });
export const CallEnvelopeSchema = z.object({
  ok: z.boolean(),
  data: z.unknown(),
  error: CallErrorSchema.nullable(),
  /** `done`, or `pending_approval` for a call held until a human decides. */
  status: z.enum(['done', 'pending_approval']),
  /** Set when the call was (or is) held for approval. */
  approval_id: ApprovalIdSchema.optional(),
  /** The real tool that ran (model-facing name), never `tool_call`. */
  tool: z.string().optional(),
});
export type CallEnvelope = z.infer<typeof CallEnvelopeSchema>;

/** One call of a model turn, as the model produced it. */
export const TurnCallSchema = z.object({
  id: z.string().min(1).max(200),
  name: z.string().min(1).max(200),
  /** An object, or the JSON text of one (models often send strings). */
  arguments: z.unknown().optional(),
});

export const DispatchRequestSchema = z.object({
  calls: z.array(TurnCallSchema).min(1).max(64),
  /** Wait up to this long (ms) for decisions on held calls before replying. */
  wait_ms: z.number().int().min(0).max(120_000).default(0),
});
export type DispatchRequest = z.input<typeof DispatchRequestSchema>;

/**
 * The result of one model call, in call order. A `tool_call` with several entries carries one
 * envelope per entry in `data.results`; its own `ok` is true only when every entry's is.
 */
export const DispatchResultSchema = CallEnvelopeSchema.extend({
  id: z.string(),
  name: z.string(),
});
export type DispatchResult = z.infer<typeof DispatchResultSchema>;
export const DispatchReplySchema = z.object({ ok: z.literal(true), results: z.array(DispatchResultSchema) });

/** What `exec.<toolset>` receives: run one plugin or core tool for a session. */
export const ExecRequestSchema = z.object({
  tenant: TenantIdSchema,
  session: SessionIdSchema,
  call_id: z.string(),
  /** The owner's own tool name. */
  tool: z.string(),
  /** The model-facing name. */
  name: z.string(),
  arguments: z.record(z.string(), z.unknown()),
  /** Set when a human approved this call. */
  approval_id: ApprovalIdSchema.optional(),
  /** How long the daemon waits for the answer. */
  timeout_ms: z.number().int().min(1).max(3_600_000).optional(),
});
export type ExecRequest = z.infer<typeof ExecRequestSchema>;
/** What an executor answers: data, or an error with a code of its choosing. */
export const ExecReplySchema = z.union([
  z.object({ ok: z.literal(true), data: z.unknown() }),
  z.object({ ok: z.literal(false), error: CallErrorSchema }),
]);
export type ExecReply = z.infer<typeof ExecReplySchema>;

export const ApprovalStateSchema = z.enum(['pending', 'approved', 'denied', 'expired', 'done']);

/** A held call as operators see it. Arguments are shown so the approver knows what they approve. */
export const ApprovalSchema = z.object({
  id: ApprovalIdSchema,
  tenant: TenantIdSchema,
  session: SessionIdSchema,
  call_id: z.string(),
  /** The real tool (model-facing name) and its owner's names. */
  tool: z.string(),
  toolset: z.string(),
  original_name: z.string(),
  arguments: z.record(z.string(), z.unknown()),
  /** sha256 of the canonical JSON of the arguments; a decision must quote it. */
  digest: z.string(),
  reason: z.string(),
  /** The session that made the call. */
  requester: SessionIdSchema,
  requested_at: z.number().int(),
  expires_at: z.number().int(),
  state: ApprovalStateSchema,
  decision: z
    .object({ decision: z.enum(['approve', 'deny', 'expire']), by: z.string(), reason: z.string(), at: z.number() })
    .optional(),
  result: CallEnvelopeSchema.optional(),
});
export type Approval = z.infer<typeof ApprovalSchema>;

export const ApprovalsListRequestSchema = z.object({
  session: SessionIdSchema.optional(),
  /** Only held calls of tools matching this pattern (`*` wildcards). */
  tool: z.string().min(1).max(200).optional(),
  limit: z.number().int().min(1).max(1000).default(100),
});
export const ApprovalsListReplySchema = z.object({ ok: z.literal(true), approvals: z.array(ApprovalSchema) });

/** An approver's decision. It names the tool and the argument digest it saw, so it cannot approve something else. */
export const ApprovalDecideRequestSchema = z.object({
  decision: z.enum(['approve', 'deny']),
  /**
   * Informational only, kept for older clients: the daemon records the approver named by the
   * request's credential (the `Authorization` header), never this field.
   */
  by: z.string().min(1).max(200).optional(),
  reason: z.string().max(2000).default(''),
  tool: z.string().min(1).max(200),
  digest: z.string().regex(/^[0-9a-f]{64}$/, 'the digest is the 64 hex digits shown by approvals.list'),
  /** Wait up to this long (ms) for an approved call to finish and include its result. */
  wait_ms: z.number().int().min(0).max(120_000).default(0),
});
export type ApprovalDecideRequest = z.input<typeof ApprovalDecideRequestSchema>;
export const ApprovalDecideReplySchema = z.object({ ok: z.literal(true), approval: ApprovalSchema });

export const ApprovalGetRequestSchema = z.object({}).loose();
export const ApprovalGetReplySchema = z.object({ ok: z.literal(true), approval: ApprovalSchema });

/** Published when a held call finished after its decision (approved and run, denied or expired). */
export const ResultEventSchema = z.object({
  tenant: TenantIdSchema,
  session: SessionIdSchema,
  approval_id: ApprovalIdSchema,
  call_id: z.string(),
  tool: z.string(),
  result: CallEnvelopeSchema,
});
export type ResultEvent = z.infer<typeof ResultEventSchema>;

/** Published when a call starts and when it finishes, under the real tool's name. */
export const ActivityEventSchema = z.object({
  tenant: TenantIdSchema,
  session: SessionIdSchema,
  call_id: z.string(),
  tool: z.string(),
  phase: z.enum(['start', 'finish']),
  at: z.number(),
  outcome: z.string().optional(),
  duration_ms: z.number().optional(),
  approval_id: ApprovalIdSchema.optional(),
});
export type ActivityEvent = z.infer<typeof ActivityEventSchema>;

export const WorkerRoleSchema = z.enum(['subagent', 'kanban_worker']);
export const SpawnRequestSchema = z.object({
  parent: SessionIdSchema,
  role: WorkerRoleSchema,
  /** Must stay within the parent's grant. */
  grant: GrantSchema,
  /** What the worker should do; passed through to the job unchanged. */
  task: z.unknown(),
  /** The child's model; the parent's when omitted. */
  model: ModelSpecSchema.optional(),
  config: z.unknown().optional(),
  coreTools: z.array(ToolDefinitionSchema).max(500).optional(),
});
export type SpawnRequest = z.input<typeof SpawnRequestSchema>;
export const SpawnReplySchema = z.object({
  ok: z.literal(true),
  session: SessionInfoSchema,
  /** The child session's bearer token: what its worker presents to act on it (also in the job). */
  token: z.string(),
  job: z.object({ queue: z.string(), id: z.string(), prefix: z.string() }),
});

/** The data of a subagent or kanban job, as a worker receives it. */
export const WorkerJobSchema = z.object({
  tenant: TenantIdSchema,
  session: SessionIdSchema,
  parent: SessionIdSchema,
  role: WorkerRoleSchema,
  grant: GrantSchema,
  /** The session's bearer token: the worker sends it (`Authorization: Bearer …`) to act on its session. */
  token: z.string(),
  task: z.unknown(),
});
export type WorkerJob = z.infer<typeof WorkerJobSchema>;

/** The BullMQ queue a role's jobs go to for one tenant (one queue per role and tenant). */
export function workerQueueName(role: z.infer<typeof WorkerRoleSchema>, tenant: string): string {
  return `${role}-${tenant}`;
}
