import { z } from 'zod';
import { ToolsetIdSchema } from '@toolsearch/catalog';
import { TenantIdSchema } from './schemas';

/**
 * Tool vetting for operators: what waits for review (changed definitions of pinned tools, and
 * quarantined ones), accepting it, and the findings event. Operator keys only.
 */

const DigestSchema = z.string().max(128);
const ToolNameSchema = z.string().min(1).max(1000);

/** One scanner finding in a tool definition (see `POISON_CODES` in @toolsearch/quality). */
export const VettingFindingSchema = z.object({
  code: z.string(),
  severity: z.enum(['high', 'medium', 'low']),
  /** JSON path of the field, e.g. `$.inputSchema.properties.notes.description`. */
  field: z.string(),
  span: z.object({ start: z.number().int(), end: z.number().int() }),
  excerpt: z.string(),
  fix: z.string(),
});
export type VettingFinding = z.infer<typeof VettingFindingSchema>;

/** Something that waits for an operator. */
export const ReviewItemSchema = z.object({
  tool: z.string(),
  /** `change`: differs from its pinned definition; `quarantine`: withheld for its findings. */
  kind: z.enum(['change', 'quarantine']),
  /** The pinned digest ('' when the tool has no pin yet). */
  before: DigestSchema,
  /** The digest of what the source sends now. */
  after: DigestSchema,
  /** A change to what the tool takes or does (sessions see no definition of it meanwhile). */
  risk_relevant: z.boolean(),
  /** Line diff of the pinned and the new definition (pretty JSON), `-`/`+`/` ` prefixed. */
  diff: z.array(z.string()),
  findings: z.array(VettingFindingSchema),
  at: z.number().int(),
});
export type ReviewItem = z.infer<typeof ReviewItemSchema>;

export const ToolsetsDiffRequestSchema = z.object({
  /** Only this toolset (all toolsets with something to review when omitted). */
  toolset: ToolsetIdSchema.optional(),
});
export const ToolsetsDiffReplySchema = z.object({
  ok: z.literal(true),
  toolsets: z.array(z.object({ toolset: ToolsetIdSchema, items: z.array(ReviewItemSchema) })),
});

export const ToolsetsAcceptRequestSchema = z.object({
  toolset: ToolsetIdSchema,
  /** Only these tools (every item of the toolset when omitted). */
  tools: z.array(ToolNameSchema).max(10_000).optional(),
  /**
   * The digests the operator reviewed, by tool: an item whose digest changed since (the source
   * sent yet another definition) is not accepted. Recommended; `toolsets accept` sends them.
   */
  digests: z.record(ToolNameSchema, DigestSchema).optional(),
});
export const ToolsetsAcceptReplySchema = z.object({
  ok: z.literal(true),
  toolset: ToolsetIdSchema,
  accepted: z.array(
    z.object({ tool: z.string(), kind: z.enum(['change', 'quarantine']), before: DigestSchema, after: DigestSchema }),
  ),
  /** Tools named (or reviewed digests) that no longer match what waits: review them again. */
  stale: z.array(z.string()),
  /** The registry revision with the accepted definitions. */
  revision: z.number().int(),
});

/** Published when vetting a toolset found something, held a change, or an operator accepted one. */
export const VettingEventSchema = z.object({
  tenant: TenantIdSchema,
  toolset: ToolsetIdSchema,
  decisions: z.array(
    z.object({
      tool: z.string(),
      decision: z.enum(['warned', 'stripped', 'quarantined', 'held', 'released', 'accepted']),
      before: DigestSchema,
      after: DigestSchema,
      findings: z.array(VettingFindingSchema),
    }),
  ),
});
export type VettingEvent = z.infer<typeof VettingEventSchema>;
