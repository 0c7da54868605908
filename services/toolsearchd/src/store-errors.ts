import { ReplyError } from 'ioredis';
import { ErrorCode, NatsError } from 'nats';

/**
 * nats.js codes of a store that is not answering for now: no responders or JetStream not
 * available (both "503": a KV stream without a leader, JetStream restarting), a request timeout
 * (the publish ack of a stream electing a leader never comes), a 408 from the server, and a
 * connection that is down or being replaced. A retry after the failover succeeds.
 */
const NATS_UNAVAILABLE: ReadonlySet<string> = new Set([
  ErrorCode.NoResponders,
  ErrorCode.JetStreamNotEnabled,
  ErrorCode.Timeout,
  ErrorCode.JetStream408RequestTimeout,
  ErrorCode.Disconnect,
  ErrorCode.ConnectionClosed,
  ErrorCode.ConnectionDraining,
  ErrorCode.ConnectionRefused,
  ErrorCode.ConnectionTimeout,
]);

/**
 * JetStream API error codes (`err_code`) of a cluster between leaders: 10008 "JetStream system
 * temporarily unavailable", 10118 "stream is offline".
 */
const JETSTREAM_UNAVAILABLE: ReadonlySet<number> = new Set([10008, 10118]);

/** Node's socket error codes, which ioredis passes through when Redis cannot be reached. */
const SOCKET_UNAVAILABLE: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * ioredis rejects commands of a connection that is not ready with plain `Error`s that carry no
 * code or class (5.11.1: `Redis.js` and `utils.CONNECTION_CLOSED_ERROR_MSG`): these exact texts
 * are their only identity, compared whole — never a pattern over arbitrary messages.
 */
const IOREDIS_NOT_READY: ReadonlySet<string> = new Set([
  "Stream isn't writeable and enableOfflineQueue options is false",
  'Connection is closed.',
  // Its Cluster client (cluster/index.js) while it has no node, or is finding the slots again.
  "Cluster isn't ready and enableOfflineQueue options is false",
  'None of startup nodes is available',
  'Cluster is disconnected.',
  'Node is disconnected',
  'Failed to refresh slots cache.',
]);

/**
 * Redis error replies of a server between roles, by the reply's first word, which is the
 * protocol's error code: a cluster without a master for a slot (CLUSTERDOWN), a slot moving
 * (TRYAGAIN), a replica whose primary is gone (MASTERDOWN), a server loading its data (LOADING),
 * and a former primary now a replica (READONLY, until the client follows the failover). MOVED and
 * ASK reach the daemon only when the Cluster client could not follow them (the slot's new owner
 * unreachable, or redirections used up).
 */
const REDIS_UNAVAILABLE_REPLIES: ReadonlySet<string> = new Set([
  'CLUSTERDOWN',
  'TRYAGAIN',
  'MOVED',
  'ASK',
  'MASTERDOWN',
  'LOADING',
  'READONLY',
]);

/** ioredis's class of Redis error replies (redis-errors' ReplyError; typed `any` by ioredis). */
const RedisReplyError = ReplyError as abstract new (...args: never[]) => Error;

/** ioredis's Cluster client gave up redirecting a command (its message then names the last error). */
const CLUSTER_REDIRECTIONS = 'Too many Cluster redirections. Last error: ';

/** ioredis's class for a command that ran out of `maxRetriesPerRequest` (not exported from its root). */
const IOREDIS_RETRIES_EXHAUSTED = 'MaxRetriesPerRequestError';

function apiErrorCode(error: NatsError): number | undefined {
  const apiError = (error as NatsError & { api_error?: { err_code?: unknown } }).api_error;
  return typeof apiError?.err_code === 'number' ? apiError.err_code : undefined;
}

/**
 * Whether a failure means a store the daemon needs (JetStream, Redis) is not answering for now,
 * so the caller should retry (`UNAVAILABLE`) rather than read it as the daemon's bug (`INTERNAL`).
 * Decided from types and codes only, following the `cause` chain.
 */
export function isStoreUnavailable(error: unknown, depth = 0): boolean {
  if (!(error instanceof Error) || depth > 5) return false;
  if (error instanceof NatsError) {
    if (NATS_UNAVAILABLE.has(error.code)) return true;
    const apiCode = apiErrorCode(error);
    if (apiCode !== undefined && JETSTREAM_UNAVAILABLE.has(apiCode)) return true;
    return isStoreUnavailable(error.chainedError, depth + 1);
  }
  const code = (error as Error & { code?: unknown }).code;
  if (typeof code === 'string' && SOCKET_UNAVAILABLE.has(code)) return true;
  if (error.name === IOREDIS_RETRIES_EXHAUSTED) return true;
  if (error.constructor === Error && IOREDIS_NOT_READY.has(error.message)) return true;
  if (error instanceof RedisReplyError && REDIS_UNAVAILABLE_REPLIES.has(error.message.split(' ')[0] ?? '')) return true;
  // The only identity of this ioredis error is its fixed opening; what follows is the last reply.
  if (error.constructor === Error && error.message.startsWith(CLUSTER_REDIRECTIONS)) return true;
  return isStoreUnavailable(error.cause, depth + 1);
}
