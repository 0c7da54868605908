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
]);

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
  return isStoreUnavailable(error.cause, depth + 1);
}
