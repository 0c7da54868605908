import { z } from 'zod';
import { NatsAuthError, resolveNatsAuth } from '@toolsearch/client';

const DEFAULT_NATS_URL = 'nats://127.0.0.1:4222';
const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

/**
 * `nats`: where the daemon's NATS is and how it authenticates. The client ignores credentials in
 * a URL, so they are taken out of it and passed as options (libs/client nats-auth.ts); at most one
 * method may be configured.
 */
export const NatsConfigSchema = z
  .object({
    /** One URL or a comma-separated seed list. */
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
  })
  .strict()
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

/** `redis`: the URL may carry `user:password@`; the keys are the place to keep them out of it. */
export const RedisConfigSchema = z
  .object({
    url: z.string().min(1).default(DEFAULT_REDIS_URL),
    /**
     * An ACL user (Redis 6+); without it the password is the `requirepass` one. Used only with a
     * password (a file may name the user and leave the password to TOOLSEARCH_REDIS_PASSWORD).
     */
    username: z.string().min(1).optional(),
    password: z.string().min(1).optional(),
  })
  .strict()
  .superRefine((redis, context) => {
    const problem = redisProblem(redis);
    if (problem !== undefined) context.addIssue({ code: 'custom', message: problem });
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

/** Why these Redis settings cannot be used, or undefined. */
function redisProblem(redis: { url: string; username?: string | undefined; password?: string | undefined }) {
  const parsed = redisUrl(redis.url);
  if (parsed === undefined)
    return redis.password === undefined ? undefined : 'credentials need a redis:// or rediss:// URL, not a socket path';
  const inUrl = { username: decodeURIComponent(parsed.username), password: decodeURIComponent(parsed.password) };
  if (redis.password !== undefined && (inUrl.username !== '' || inUrl.password !== '')) {
    if (inUrl.password !== redis.password || inUrl.username !== (redis.username ?? ''))
      return `the Redis URL carries credentials that disagree with the configured ones; credentials go in ${REDIS_SOURCES}, not in the URL`;
  }
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
 * The URL every ioredis connection of the daemon opens, with the configured credentials written
 * into it (ioredis honours `user:password@`). The queue and approval adapters take a URL, so this
 * one string reaches every connection.
 */
export function redisConnectionUrl(redis: RedisConfig): string {
  const parsed = redisUrl(redis.url);
  if (parsed === undefined) return redis.url;
  const { username, password } = redisCredentials(redis);
  parsed.username = username === undefined ? '' : encodeURIComponent(username);
  parsed.password = password === undefined ? '' : encodeURIComponent(password);
  return parsed.toString();
}
