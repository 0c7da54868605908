import { connect, ErrorCode, NatsError, type NatsConnection } from 'nats';
import type { Logger } from 'pino';
import {
  describeNatsAuth,
  NATS_AUTH_SOURCES,
  NatsAuthError,
  natsConnectOptions,
  redactUrl,
  resolveNatsAuth,
} from '@toolsearch/client';
import { ConfigError, type DaemonConfig } from './config';
import { redisCredentials } from './connection-config';
import { RedisConnector, type RedisClient } from './redis-client';

const REDIS_SOURCES =
  'redis.password (TOOLSEARCH_REDIS_PASSWORD), with redis.username (TOOLSEARCH_REDIS_USERNAME) for an ACL user';

/** Stable codes of StartupError. */
export const STARTUP_ERROR_CODES = {
  NATS_AUTH: 'NATS_AUTH',
  NATS_UNREACHABLE: 'NATS_UNREACHABLE',
  REDIS_AUTH: 'REDIS_AUTH',
  REDIS_UNREACHABLE: 'REDIS_UNREACHABLE',
} as const;
export type StartupErrorCode = (typeof STARTUP_ERROR_CODES)[keyof typeof STARTUP_ERROR_CODES];

/** NATS or Redis could not be reached or refused the daemon's credentials. Never carries a secret. */
export class StartupError extends Error {
  constructor(
    readonly code: StartupErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(redactUrl(message), options);
    this.name = 'StartupError';
  }
}

type Unauthenticated = 'NATS' | 'Redis' | 'Redis Sentinel';

/**
 * Which of NATS, Redis and the Sentinels the config leaves without authentication. A Sentinel that
 * anyone may command can name any server as the primary, and the daemon would send it its Redis
 * password: in sentinel mode the Sentinels' password is as necessary as Redis's.
 */
export function unauthenticated(config: DaemonConfig): Unauthenticated[] {
  const open: Unauthenticated[] = [];
  if (resolveNatsAuth(config.nats).auth.kind === 'none') open.push('NATS');
  if (redisCredentials(config.redis).password === undefined) open.push('Redis');
  if (config.redis.mode === 'sentinel' && config.redis.sentinelPassword === undefined) open.push('Redis Sentinel');
  return open;
}

/**
 * Refuses a daemon without NATS credentials or a Redis password, unless `security.insecure` asks
 * for it; then warns once. Anyone who can reach an unauthenticated NATS or Redis can act as any
 * tenant, so running that way has to be a decision, not a default.
 */
export function checkAuthentication(config: DaemonConfig, log: Logger): void {
  const open = unauthenticated(config);
  if (open.length === 0) return;
  if (!config.security.insecure) {
    const needs = [
      ...(open.includes('NATS') ? [`NATS credentials (${NATS_AUTH_SOURCES})`] : []),
      ...(open.includes('Redis') ? [`a Redis password (${REDIS_SOURCES})`] : []),
      ...(open.includes('Redis Sentinel')
        ? ['a Sentinel password (redis.sentinelPassword, TOOLSEARCH_REDIS_SENTINEL_PASSWORD)']
        : []),
    ];
    throw new ConfigError(
      `security: ${open.join(' and ')} without authentication. Configure ${needs.join(' and ')}; ` +
        'or, to run without authentication (development only), set security.insecure: true (TOOLSEARCH_INSECURE=1).',
    );
  }
  log.warn(
    { unauthenticated: open },
    `security.insecure: ${open.join(' and ')} ${open.length > 1 ? 'are' : 'is'} unauthenticated; any client that reaches ${open.length > 1 ? 'them' : 'it'} can act as any tenant`,
  );
}

/** Connects to NATS with the configured credentials; a refusal says which ones and where to change them. */
export async function connectNats(config: DaemonConfig): Promise<NatsConnection> {
  let options;
  try {
    options = natsConnectOptions(config.nats);
  } catch (error) {
    if (error instanceof NatsAuthError) throw new ConfigError(`nats: ${error.message}`);
    throw error;
  }
  const servers = options.servers as string[];
  try {
    return await connect({ ...options, name: 'toolsearchd', maxReconnectAttempts: -1 });
  } catch (error) {
    const auth = describeNatsAuth(resolveNatsAuth(config.nats).auth);
    const reason = error instanceof Error ? error.message : String(error);
    if (error instanceof NatsError && (error.isAuthError() || error.code === ErrorCode.BadCreds))
      throw new StartupError(
        STARTUP_ERROR_CODES.NATS_AUTH,
        `NATS at ${servers.join(',')} refused ${auth} (${reason}); check ${NATS_AUTH_SOURCES}.`,
        { cause: error },
      );
    throw new StartupError(
      STARTUP_ERROR_CODES.NATS_UNREACHABLE,
      `cannot connect to NATS at ${servers.join(',')} with ${auth} (${reason}); check nats.url (TOOLSEARCH_NATS_URL).`,
      { cause: error },
    );
  }
}

// Redis names its errors by the first word of the reply (`WRONGPASS …`, `NOAUTH …`): that word is
// the protocol's error code, not free text.
const REDIS_AUTH_CODES = new Set(['WRONGPASS', 'NOAUTH', 'NOPERM']);

/** The daemon's own Redis connection, connected; a refusal says where the credentials go. */
export async function connectRedis(connector: RedisConnector): Promise<RedisClient> {
  const redis = connector.create('commands', 'daemon', { lazyConnect: true });
  // A refused AUTH arrives as an 'error' event; connect() then only says "Connection is closed".
  let refusal: Error | undefined;
  redis.on('error', (error: Error) => (refusal ??= error));
  try {
    await redis.connect();
    // A server without authentication answers even with no password; one with it refuses here.
    await redis.ping();
    return redis;
  } catch (error) {
    redis.disconnect();
    const cause = refusal ?? error;
    const reason = cause instanceof Error ? cause.message : String(cause);
    const where = connector.location;
    if (REDIS_AUTH_CODES.has(reason.split(' ')[0] ?? ''))
      throw new StartupError(
        STARTUP_ERROR_CODES.REDIS_AUTH,
        `Redis at ${where} refused the daemon's credentials (${reason}); check ${REDIS_SOURCES}, or the user:password in redis.url.`,
        { cause },
      );
    throw new StartupError(
      STARTUP_ERROR_CODES.REDIS_UNREACHABLE,
      `cannot connect to Redis at ${where} (${reason}); check ${connector.locationSetting}.`,
      { cause },
    );
  }
}

/**
 * NATS and Redis for the daemon, after the authentication check; `connector` opens the further
 * Redis connections (BullMQ queues and workers) for the same mode and credentials.
 */
export async function openConnections(
  config: DaemonConfig,
  log: Logger,
): Promise<{ nc: NatsConnection; redis: RedisClient; connector: RedisConnector }> {
  checkAuthentication(config, log);
  const nc = await connectNats(config);
  try {
    const connector = new RedisConnector(config.redis, log);
    return { nc, redis: await connectRedis(connector), connector };
  } catch (error) {
    await nc.close().catch(() => undefined);
    throw error;
  }
}
