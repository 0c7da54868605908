import { z } from 'zod';
import { NatsAuthError, resolveNatsAuth } from '@toolsearch/client';

const DEFAULT_NATS_URL = 'nats://127.0.0.1:4222';
const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

/** A list setting given as a YAML list or as one comma-separated string (an environment variable). */
export function listSetting<T extends z.ZodTypeAny>(item: T) {
  return z.preprocess(
    (value) =>
      typeof value === 'string'
        ? value
            .split(',')
            .map((entry) => entry.trim())
            .filter((entry) => entry !== '')
        : value,
    z.array(item).min(1),
  );
}

/**
 * `nats`: where the daemon's NATS is and how it authenticates. The client ignores credentials in
 * a URL, so they are taken out of it and passed as options (libs/client nats-auth.ts); at most one
 * method may be configured.
 */
export const NatsConfigSchema = z
  .preprocess(
    // `servers` is the list form of `url`: the daemon connects to `url`, the seeds joined by commas.
    (raw) => {
      if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return raw;
      const { servers, ...rest } = raw as Record<string, unknown>;
      if (servers === undefined) return raw;
      if (rest['url'] !== undefined) return { ...rest, servers, url: rest['url'] };
      const list = listSetting(z.string().min(1)).safeParse(servers);
      return list.success ? { ...rest, url: list.data.join(',') } : { ...rest, servers };
    },
    z
      .object({
        /** One URL or a comma-separated seed list (`nats.servers` is the same as a list). */
        url: z.string().min(1).default(DEFAULT_NATS_URL),
        user: z.string().min(1).optional(),
        password: z.string().min(1).optional(),
        token: z.string().min(1).optional(),
        /** A file holding the daemon's user NKey seed (`SU…`). */
        nkeySeedFile: z.string().min(1).optional(),
        /** A `.creds` file (user JWT and seed), for operator-mode NATS. */
        credsFile: z.string().min(1).optional(),
        /**
         * Replicas of the toolset registry's KV stream when the daemon creates it (JetStream allows
         * 1, 3 or 5). With 1, losing the node that holds it stops every `toolsets.put` until it is back.
         */
        kvReplicas: z.union([z.literal(1), z.literal(3), z.literal(5)]).default(1),
        /** Only when it is invalid, or given with `url`, does `servers` reach the schema: both are refused. */
        servers: z
          .never({ error: 'nats.servers: a list of NATS URLs, given instead of nats.url (not with it)' })
          .optional(),
      })
      .strict(),
  )
  .superRefine((nats, context) => {
    try {
      resolveNatsAuth(nats);
    } catch (error) {
      if (!(error instanceof NatsAuthError)) throw error;
      context.addIssue({ code: 'custom', message: error.message });
    }
  })
  .prefault({});
export type NatsConfig = z.infer<typeof NatsConfigSchema>;

/** `host:port` (a bracketed IPv6 address allowed), as Redis Cluster seed nodes and Sentinels are given. */
const HostPortSchema = z
  .string()
  .regex(/^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):\d{1,5}$/, 'host:port, e.g. redis-0:6379 or [::1]:26379');

/** The Redis deployments the daemon can run on (docs/clustering.md). */
export const REDIS_MODES = ['standalone', 'cluster', 'sentinel'] as const;

/**
 * `redis`: one server (`url`), a Redis Cluster (`nodes`: seed nodes) or a primary found through
 * Sentinel (`sentinels` + `name`). The URL may carry `user:password@`; the keys are the place to
 * keep them out of it. In cluster and sentinel mode credentials come from the keys only.
 */
export const RedisConfigSchema = z
  .object({
    mode: z.enum(REDIS_MODES).default('standalone'),
    url: z.string().min(1).default(DEFAULT_REDIS_URL),
    /** Cluster mode: seed nodes (`host:port`); the client learns the others from them. */
    nodes: listSetting(HostPortSchema).optional(),
    /** Sentinel mode: the Sentinels (`host:port`) that know the primary. */
    sentinels: listSetting(HostPortSchema).optional(),
    /** Sentinel mode: the name the Sentinels monitor the primary under (`sentinel monitor <name> …`). */
    name: z
      .string()
      .regex(/^[A-Za-z0-9._-]+$/)
      .optional(),
    /**
     * An ACL user (Redis 6+); without it the password is the `requirepass` one. Used only with a
     * password (a file may name the user and leave the password to TOOLSEARCH_REDIS_PASSWORD).
     */
    username: z.string().min(1).optional(),
    password: z.string().min(1).optional(),
    /** Sentinel mode: the Sentinels' own user and password (`requirepass`/ACL on the Sentinels), if they have one. */
    sentinelUsername: z.string().min(1).optional(),
    sentinelPassword: z.string().min(1).optional(),
  })
  .strict()
  .superRefine((redis, context) => {
    const problem = redisProblem(redis) ?? modeProblem(redis);
    if (problem !== undefined) context.addIssue({ code: 'custom', message: problem.message, path: problem.path });
  })
  .prefault({});
export type RedisConfig = z.infer<typeof RedisConfigSchema>;

/** `security`: running without NATS or Redis authentication has to be asked for. */
export const SecurityConfigSchema = z
  .object({
    /**
     * Start even when NATS or Redis has no credentials configured. Then any client of that NATS or
     * Redis can act as any tenant: for development and tests only.
     */
    insecure: z.boolean().default(false),
    /**
     * The reply subjects the daemon answers on, per tenant: `{tenant}` is the request's tenant.
     * The default is the inboxes of the tenant's NATS users (`_INBOX_<tenant>-<role>.…`, what
     * `infra/nats.conf` lets them subscribe to; the final dot keeps tenant `acme` out of the inboxes
     * of a tenant `acme-x`). With `insecure`, NATS's default `_INBOX.` is answered too.
     */
    replyPrefixes: z
      .array(
        z
          .string()
          .min(1)
          .max(200)
          .regex(/^[A-Za-z0-9_$.{}-]+$/, 'letters, digits and _ $ . { } - only'),
      )
      .max(100)
      .default([
        '_INBOX_{tenant}-gateway.',
        '_INBOX_{tenant}-worker.',
        '_INBOX_{tenant}-approver.',
        '_INBOX_{tenant}-operator.',
      ]),
  })
  .strict()
  .prefault({});

const REDIS_SOURCES = 'redis.username/redis.password (TOOLSEARCH_REDIS_USERNAME, TOOLSEARCH_REDIS_PASSWORD)';

/** The URL as ioredis reads it (`host:port` is `redis://host:port`), or undefined for a socket path. */
function redisUrl(url: string): URL | undefined {
  if (url.startsWith('/')) return undefined;
  try {
    return new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `redis://${url}`);
  } catch {
    return undefined;
  }
}

type Problem = { message: string; path: string[] } | undefined;

/** Why these Redis settings cannot be used, or undefined. */
function redisProblem(redis: {
  mode: string;
  url: string;
  username?: string | undefined;
  password?: string | undefined;
}): Problem {
  if (redis.mode !== 'standalone') return undefined;
  const parsed = redisUrl(redis.url);
  if (parsed === undefined)
    return redis.password === undefined
      ? undefined
      : { message: 'credentials need a redis:// or rediss:// URL, not a socket path', path: [] };
  const inUrl = { username: decodeURIComponent(parsed.username), password: decodeURIComponent(parsed.password) };
  if (redis.password !== undefined && (inUrl.username !== '' || inUrl.password !== '')) {
    if (inUrl.password !== redis.password || inUrl.username !== (redis.username ?? ''))
      return {
        message: `the Redis URL carries credentials that disagree with the configured ones; credentials go in ${REDIS_SOURCES}, not in the URL`,
        path: [],
      };
  }
  return undefined;
}

/** What the chosen mode needs and what it does not use. */
function modeProblem(redis: {
  mode: string;
  nodes?: unknown[] | undefined;
  sentinels?: unknown[] | undefined;
  name?: string | undefined;
}): Problem {
  if (redis.mode === 'cluster' && redis.nodes === undefined)
    return { message: 'redis.mode cluster needs redis.nodes: seed nodes as host:port', path: ['nodes'] };
  if (redis.mode === 'sentinel' && redis.sentinels === undefined)
    return { message: 'redis.mode sentinel needs redis.sentinels: the Sentinels as host:port', path: ['sentinels'] };
  if (redis.mode === 'sentinel' && redis.name === undefined)
    return { message: 'redis.mode sentinel needs redis.name: the name the Sentinels monitor', path: ['name'] };
  if (redis.mode !== 'cluster' && redis.nodes !== undefined)
    return { message: 'redis.nodes is for redis.mode cluster', path: ['nodes'] };
  if (redis.mode !== 'sentinel' && (redis.sentinels !== undefined || redis.name !== undefined))
    return { message: 'redis.sentinels and redis.name are for redis.mode sentinel', path: ['sentinels'] };
  return undefined;
}

/** The credentials Redis will be sent: the keys', else the URL's. */
export function redisCredentials(redis: RedisConfig): { username?: string; password?: string } {
  if (redis.password !== undefined)
    return { ...(redis.username !== undefined ? { username: redis.username } : {}), password: redis.password };
  const parsed = redisUrl(redis.url);
  const username = decodeURIComponent(parsed?.username ?? '');
  const password = decodeURIComponent(parsed?.password ?? '');
  return { ...(username !== '' ? { username } : {}), ...(password !== '' ? { password } : {}) };
}

/**
 * The URL of a standalone Redis with the configured credentials written into it (ioredis honours
 * `user:password@`): what RedisConnector opens in standalone mode, and what tests and tools connect
 * to.
 */
export function redisConnectionUrl(redis: RedisConfig): string {
  const parsed = redisUrl(redis.url);
  if (parsed === undefined) return redis.url;
  const { username, password } = redisCredentials(redis);
  parsed.username = username === undefined ? '' : encodeURIComponent(username);
  parsed.password = password === undefined ? '' : encodeURIComponent(password);
  return parsed.toString();
}
