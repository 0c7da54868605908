import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { GrantSchema, McpAttachRequestSchema, ModelSpecSchema } from '@toolsearch/proto';
import { TenantPolicySchema } from './policy-config';
import { NatsConfigSchema, RedisConfigSchema, SecurityConfigSchema } from './connection-config';
import { CredentialsSchema } from './identity/credentials';
import { HttpConfigSchema } from './http/http-config';
import { McpLeaseConfigSchema } from './mcp-lease';
import { ReconnectConfigSchema } from './mcp-reconnect';
import { OutboundConfigSchema, TenantOutboundConfigSchema } from './outbound/outbound-config';
import { QuotasSchema } from './quotas';
import { LearnFromUseSchema } from './usage-learning';
import { TenantVettingSchema, VettingConfigSchema } from './vetting/vetting-config';

/** The daemon's configuration. Every key has a default; unknown keys are refused with their path. */
export const DaemonConfigSchema = z
  .object({
    nats: NatsConfigSchema,
    redis: RedisConfigSchema,
    security: SecurityConfigSchema,
    /** Names that let several deployments (or test runs) share one NATS and one Redis. */
    namespace: z
      .object({
        /** JetStream KV bucket of the toolset registry. */
        bucket: z
          .string()
          .regex(/^[A-Za-z0-9_-]+$/)
          .default('toolsearch-toolsets'),
        /**
         * Prefix of every Redis key. The daemon puts each tenant's keys under a hash tag of its own
         * (`<prefix>{<tenant>}:…`, redis-keys.ts); on Redis Cluster the prefix may not hold braces,
         * which would put every key in one slot.
         */
        redisPrefix: z
          .string()
          .regex(/^[A-Za-z0-9:_{}-]+$/)
          .default('toolsearch:'),
        /**
         * Queue group shared by the replicas of one deployment. It is not an isolation boundary:
         * daemons with other queue groups on the same NATS also answer the v1 subjects, so run one
         * deployment per NATS account (or cluster).
         */
        queue: z
          .string()
          .regex(/^[A-Za-z0-9_-]+$/)
          .default('toolsearchd'),
      })
      .strict()
      .default({ bucket: 'toolsearch-toolsets', redisPrefix: 'toolsearch:', queue: 'toolsearchd' }),
    limits: z
      .object({
        /** Largest request payload accepted, in bytes. */
        maxPayloadBytes: z
          .number()
          .int()
          .min(1024)
          .max(64 * 1024 * 1024)
          .default(1024 * 1024),
        /** Sessions kept in memory per replica before the least recently used are dropped (they reload from Redis). */
        maxSessionsInMemory: z.number().int().min(1).max(10_000_000).default(100_000),
        /** Bytes of those sessions' descriptors (as stored) kept in memory per replica, all tenants together. */
        maxSessionBytesInMemory: z
          .number()
          .int()
          .min(1024 * 1024)
          .max(64 * 1024 ** 3)
          .default(256 * 1024 ** 2),
        /**
         * Tools the search engines a replica holds may index together, all tenants (some 1.3 KiB
         * each); over it, the tenant whose engines index the most gives up its least recently used
         * one (rebuilt, and charged to it, when next searched). Each tenant's newest engine is kept.
         */
        maxIndexedTools: z.number().int().min(1000).max(100_000_000).default(120_000),
        /**
         * Tools the cached assemblies hold together, and separately the cached session surfaces (some
         * 0.4 KiB each); over it, the tenant holding the most gives up its least recently used one.
         */
        maxAssembledTools: z.number().int().min(1000).max(100_000_000).default(200_000),
        /** How deep arrays and objects may nest in a request (and in JSON text inside one); see json-limits.ts. */
        maxJsonDepth: z.number().int().min(8).max(1000).default(64),
        /** Tools one toolset may hold (`toolsets.put`, an attached MCP server, a config catalog). */
        maxToolsPerToolset: z.number().int().min(1).max(100_000).default(10_000),
        /** Bytes of JSON one tool definition may take (core tools, toolset puts, MCP tool lists, catalogs). */
        maxToolBytes: z
          .number()
          .int()
          .min(1024)
          .max(16 * 1024 * 1024)
          .default(128 * 1024),
        /**
         * Routing-pattern tests one tenant's searches may make per second on a replica while they
         * learn which tools a session config's patterns match (see routing-budgets.ts).
         */
        routingTestsPerSecond: z.number().int().min(1000).max(100_000_000).default(200_000),
        /**
         * Bytes of JSON a session's own settings (its config and the core tools it brings) may take:
         * each session is stored in Redis and held by the replicas serving it (see json-limits.ts).
         */
        maxSessionBytes: z
          .number()
          .int()
          .min(16 * 1024)
          .max(64 * 1024 * 1024)
          .default(256 * 1024),
        /** Patterns with `*` a session's grant may have, its ancestors' allow lists included. */
        maxGrantWildcards: z.number().int().min(0).max(1000).default(32),
        /** Wildcard patterns × tool names a grant may test when a session opens (see grant.ts). */
        maxGrantTests: z.number().int().min(1000).max(1_000_000_000).default(1_000_000),
      })
      .strict()
      .prefault({}),
    mcp: z
      .object({
        /**
         * Commands a tenant may start as a stdio MCP server through `mcp.attach` (exact match on the
         * command). Empty: stdio servers can only be attached by the operator, never over the wire.
         */
        allowedCommands: z.array(z.string().min(1)).default([]),
        /** Where a tenant's `mcp.attach` over HTTP may connect (see docs/security.md). */
        outbound: OutboundConfigSchema,
        /** Backoff of reconnects to an MCP server that went away. */
        reconnect: ReconnectConfigSchema,
        /** How long a dead replica's attached servers wait for another to take them over (see mcp-lease.ts). */
        lease: McpLeaseConfigSchema,
      })
      .strict()
      .prefault({}),
    dispatch: z
      .object({
        /** Calls of one parallel segment that run at the same time. */
        concurrency: z.number().int().min(1).max(256).default(8),
        /** A call that has not finished after this long fails with TIMEOUT. */
        timeoutMs: z.number().int().min(10).max(3_600_000).default(30_000),
        /** Extra attempts when a read-only or idempotent tool's executor cannot be reached. */
        retries: z.number().int().min(0).max(5).default(1),
        /** Entries kept in each tenant's audit stream (older ones are trimmed). */
        auditMaxLen: z.number().int().min(100).max(100_000_000).default(100_000),
        /** Held calls being run at the same time by one replica. */
        approvalConcurrency: z.number().int().min(1).max(1024).default(16),
      })
      .strict()
      .prefault({}),
    /** The HTTP listener and the limits of its edge (see HttpConfigSchema). */
    http: HttpConfigSchema.prefault({}),
    /** The policy of every tenant without one of its own under `tenants.<id>.policy`. */
    policy: TenantPolicySchema.prefault({}),
    log: z
      .object({ level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info') })
      .strict()
      .default({ level: 'info' }),
    /** What one tenant may hold at once (sessions, toolsets, held calls, requests per second…). */
    quotas: QuotasSchema.prefault({}),
    /** The bounds of learning from use, for the tenants that opted in (`tenants.<id>.learnFromUse`). */
    learnFromUse: LearnFromUseSchema.prefault({}),
    /** How third-party tool definitions are scanned and pinned (see docs/security.md). */
    vetting: VettingConfigSchema.prefault({}),
    /**
     * The credential keys requests present in their `Authorization: Bearer …` NATS header
     * (gateways, approvers, operators), each by its sha256 (see docs/security.md).
     */
    credentials: CredentialsSchema,
    /** Tenants and their toolsets registered at start (for demos and fixed deployments). */
    tenants: z
      .record(
        z.string().regex(/^[a-z0-9][a-z0-9-]{0,62}$/),
        z
          .object({
            catalogs: z.array(z.string().min(1)).default([]),
            /** MCP servers the operator attaches at start (not limited by mcp.allowedCommands). */
            mcp: z.array(McpAttachRequestSchema).default([]),
            /** Added to `mcp.outbound` for this tenant's `mcp.attach` (its `allowPrivate` replaces the global one). */
            mcpOutbound: TenantOutboundConfigSchema.optional(),
            /** This tenant's policy (replaces the top-level `policy` as a whole). */
            policy: TenantPolicySchema.optional(),
            /** This tenant's quotas (each one given replaces the top-level `quotas` value). */
            quotas: QuotasSchema.partial().optional(),
            /** This tenant's vetting (each key given replaces the top-level `vetting` value). */
            vetting: TenantVettingSchema.optional(),
            /**
             * Learning from use: this tenant's searches rank higher the tools its sessions called
             * successfully after searching the same words (kept per tenant, per replica; see
             * usage-learning.ts). Off unless set.
             */
            learnFromUse: z.boolean().default(false),
            /**
             * API keys for the MCP endpoint: a client that presents one gets a new gateway session
             * with this grant and model, closed when its MCP session ends. Only the key's sha256 is
             * configured (`printf %s "$KEY" | sha256sum`), never the key.
             */
            apiKeys: z
              .array(
                z
                  .object({
                    name: z.string().min(1).max(100),
                    sha256: z.string().regex(/^[0-9a-f]{64}$/, 'the sha256 of the key, 64 lowercase hex digits'),
                    grant: GrantSchema,
                    model: ModelSpecSchema.default({ contextLength: 200_000 }),
                    /** The session's `tools.tool_search` settings. */
                    config: z.unknown().optional(),
                  })
                  .strict(),
              )
              .default([]),
          })
          .strict(),
      )
      .default({}),
  })
  .strict()
  .superRefine((config, context) => {
    if (config.redis.mode === 'cluster' && /[{}]/.test(config.namespace.redisPrefix))
      context.addIssue({
        code: 'custom',
        path: ['namespace', 'redisPrefix'],
        message:
          'on Redis Cluster the prefix may not hold { or }: the daemon hash-tags each tenant itself, and a brace in the prefix would put every key in one slot',
      });
  });
export type DaemonConfig = z.infer<typeof DaemonConfigSchema>;
export type DaemonConfigInput = z.input<typeof DaemonConfigSchema>;

/** A config problem, with the path of the key at fault. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

type RawConfig = Record<string, Record<string, unknown> | undefined>;
/** Sets `raw[section][key]`, creating the section when it is missing or not a mapping. */
function setKey(raw: RawConfig, section: string, key: string, value: unknown): void {
  const current = raw[section];
  raw[section] = { ...(typeof current === 'object' && current !== null ? current : {}), [key]: value };
}
const ENV_OVERRIDES: readonly [string, string, string][] = [
  ['TOOLSEARCH_NATS_URL', 'nats', 'url'],
  ['TOOLSEARCH_NATS_USER', 'nats', 'user'],
  ['TOOLSEARCH_NATS_PASSWORD', 'nats', 'password'],
  ['TOOLSEARCH_NATS_TOKEN', 'nats', 'token'],
  ['TOOLSEARCH_NATS_NKEY_SEED_FILE', 'nats', 'nkeySeedFile'],
  ['TOOLSEARCH_NATS_CREDS_FILE', 'nats', 'credsFile'],
  ['TOOLSEARCH_REDIS_URL', 'redis', 'url'],
  ['TOOLSEARCH_REDIS_USERNAME', 'redis', 'username'],
  ['TOOLSEARCH_REDIS_PASSWORD', 'redis', 'password'],
  ['TOOLSEARCH_REDIS_MODE', 'redis', 'mode'],
  ['TOOLSEARCH_REDIS_NODES', 'redis', 'nodes'],
  ['TOOLSEARCH_REDIS_SENTINELS', 'redis', 'sentinels'],
  ['TOOLSEARCH_REDIS_NAME', 'redis', 'name'],
  ['TOOLSEARCH_REDIS_SENTINEL_USERNAME', 'redis', 'sentinelUsername'],
  ['TOOLSEARCH_REDIS_SENTINEL_PASSWORD', 'redis', 'sentinelPassword'],
  ['TOOLSEARCH_INSECURE', 'security', 'insecure'],
  ['TOOLSEARCH_LOG_LEVEL', 'log', 'level'],
  ['TOOLSEARCH_BUCKET', 'namespace', 'bucket'],
  ['TOOLSEARCH_REDIS_PREFIX', 'namespace', 'redisPrefix'],
  ['TOOLSEARCH_HTTP_HOST', 'http', 'host'],
  ['TOOLSEARCH_HTTP_PORT', 'http', 'port'],
];

/**
 * An environment value as the schema expects it: numbers and booleans stay what they are, so a bad
 * one is reported as such ("http.port: expected number", "security.insecure: expected boolean").
 */
function typed(key: string, value: string): unknown {
  if (key === 'port' && /^\d+$/.test(value)) return Number(value);
  if (key === 'insecure' && /^(1|true|0|false)$/i.test(value)) return /^(1|true)$/i.test(value);
  return value;
}

/**
 * Reads the config: a YAML file (optional), then the environment overrides of ENV_OVERRIDES
 * (`TOOLSEARCH_NATS_URL`, `TOOLSEARCH_NATS_USER`, `TOOLSEARCH_REDIS_PASSWORD`, `TOOLSEARCH_INSECURE`,
 * …), validated as a whole. Errors name the key: `limits.maxPayloadBytes: ...`. Secrets are best
 * given through the environment (a Kubernetes Secret), not the file.
 */
export function loadDaemonConfig(
  path: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): DaemonConfig {
  let raw: RawConfig = {};
  if (path !== undefined) {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      throw new ConfigError(`cannot read config ${path}: ${(error as Error).message}`);
    }
    const parsed: unknown = parseYaml(text);
    if (parsed !== null && parsed !== undefined && (typeof parsed !== 'object' || Array.isArray(parsed))) {
      throw new ConfigError(`${path}: the config must be a mapping of keys`);
    }
    raw = (parsed as RawConfig | null) ?? {};
  }
  for (const [name, section, key] of ENV_OVERRIDES) {
    const value = env[name];
    if (value === undefined || value === '') continue;
    setKey(raw, section, key, typed(key, value));
    // TOOLSEARCH_NATS_URL replaces the file's seed list whichever form the file gives it in.
    if (section === 'nats' && key === 'url') delete raw['nats']?.['servers'];
  }
  return parseDaemonConfig(raw);
}

export function parseDaemonConfig(raw: unknown): DaemonConfig {
  const result = DaemonConfigSchema.safeParse(raw);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue && issue.path.length > 0 ? issue.path.join('.') : '(top level)';
  throw new ConfigError(`${where}: ${issue?.message ?? 'invalid'}`);
}
