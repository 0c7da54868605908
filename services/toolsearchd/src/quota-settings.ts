import { z } from 'zod';
import { WIRE_ERROR_CODES } from '@toolsearch/proto';
import { RequestError } from './serve-request';

/**
 * What one tenant may hold at once on a shared daemon. Defaults protect a daemon that serves many
 * tenants; an operator raises them for a tenant under `tenants.<id>.quotas`.
 */
export const QuotasSchema = z
  .object({
    /** Open sessions (gateway sessions, subagents and workers together). */
    sessions: z.number().int().min(1).max(10_000_000).default(10_000),
    /** Toolsets the tenant registered itself (the operator's are not counted). */
    toolsets: z.number().int().min(1).max(1_000_000).default(500),
    /** Tools across those toolsets. */
    tools: z.number().int().min(1).max(10_000_000).default(20_000),
    /** Bytes of those toolsets' definitions (JSON). */
    toolsetBytes: z
      .number()
      .int()
      .min(1024)
      .max(4 * 1024 ** 3)
      .default(32 * 1024 ** 2),
    /**
     * Bytes of the tenant's open sessions as stored (descriptor JSON: the grant, the config and
     * the core tools each session brought), all sessions together. The default holds 10,000
     * sessions of 26 KB, or some 6,500 that each bring 40 KB of core tools.
     */
    sessionBytes: z
      .number()
      .int()
      .min(64 * 1024)
      .max(4 * 1024 ** 3)
      .default(256 * 1024 ** 2),
    /** MCP servers the tenant attached itself (`mcp.attach`). */
    mcpServers: z.number().int().min(0).max(100_000).default(20),
    /** Calls held for a decision at once. */
    heldApprovals: z.number().int().min(1).max(10_000_000).default(1_000),
    /**
     * NATS requests per second, all replicas together, each counted at its weight
     * (REQUEST_WEIGHTS: a search counts 1, opening a session 20).
     */
    requestsPerSecond: z.number().int().min(1).max(10_000_000).default(1_000),
  })
  .strict();
export type Quotas = z.infer<typeof QuotasSchema>;
export type QuotaName = keyof Quotas;

/** A tenant at one of its quotas: the request was refused and changed nothing. */
export class QuotaExceededError extends RequestError {
  /** A retry in the tenant's next second can pass `requestsPerSecond`: its refusals may be held until then. */
  override readonly holdUntilWindow: boolean;

  constructor(
    readonly quota: QuotaName,
    readonly limit: number,
    what: string,
  ) {
    super(
      WIRE_ERROR_CODES.QUOTA_EXCEEDED,
      `quota '${quota}' reached: ${what} (limit ${limit}). Free some, or ask the operator to raise quotas.${quota} for this tenant.`,
    );
    this.holdUntilWindow = quota === 'requestsPerSecond';
  }
}

/** What the quotas count, from the stores that hold it. */
export interface QuotaUsageSource {
  /** Open sessions of the tenant. */
  sessions(tenant: string): Promise<number>;
  /** Bytes of the tenant's open sessions as stored. */
  sessionBytes(tenant: string): Promise<number>;
  /** The tenant's own toolsets: how many, their tools and bytes, and how many are attached MCP servers. */
  toolsets(tenant: string): { toolsets: number; tools: number; bytes: number; mcpServers: number };
  /** Calls of the tenant held for a decision. */
  heldApprovals(tenant: string): Promise<number>;
}

/** Each tenant's quotas where its config changes some: the top-level ones with its own on top. */
export function tenantQuotas(config: {
  quotas: Quotas;
  tenants: Record<string, { quotas?: Partial<Quotas> | undefined }>;
}): Map<string, Quotas> {
  const perTenant = new Map<string, Quotas>();
  for (const [tenant, settings] of Object.entries(config.tenants))
    if (settings.quotas !== undefined) perTenant.set(tenant, { ...config.quotas, ...settings.quotas });
  return perTenant;
}

/** One tenant's usage of each quota, with the limit. */
export type QuotaReport = Record<QuotaName, { used: number; limit: number }>;
