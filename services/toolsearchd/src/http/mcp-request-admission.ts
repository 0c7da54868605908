import { WIRE_ERROR_CODES } from '@toolsearch/proto';
import { QuotaExceededError } from '../quotas';
import { bridgeCallWeight, REQUEST_WEIGHTS } from '../request-weights';
import { LimitExceededError } from '../json-limits';
import { RequestError } from '../serve-request';
import { EDGE_ERROR_CODES, RPC_CODES, type Refusal } from './edge-refusal';

/**
 * What an `initialize` with a tenant API key counts: it opens a session, as `sessions.open` does over NATS
 * (`REQUEST_WEIGHTS`). With a session token it counts 1 (it opens nothing).
 */
export const INITIALIZE_WEIGHT_OPENING =
  typeof REQUEST_WEIGHTS.sessionsOpen === 'number' ? REQUEST_WEIGHTS.sessionsOpen : 1;

/**
 * What one JSON-RPC message of an `/mcp` POST counts against its tenant's requests per second,
 * as the same work over NATS would: `tools/list` 1, `tools/call` as one call of a dispatched turn
 * (`bridgeCallWeight`: a `tool_search` 1 per query, a `tool_call` 1 per entry, any other tool 1).
 * Everything else (pings, notifications, responses) is free;
 * `initialize` is weighed where it is served (`INITIALIZE_WEIGHT_OPENING`).
 */
function messageWeight(message: unknown): number {
  if (typeof message !== 'object' || message === null) return 0;
  const { method, params } = message as { method?: unknown; params?: unknown };
  if (method === 'tools/list') return 1;
  if (method !== 'tools/call') return 0;
  const { name, arguments: args } = (params ?? {}) as { name?: unknown; arguments?: unknown };
  return bridgeCallWeight(name, args);
}

/** The weight of an `/mcp` POST body: its message, or the sum over a batch of them. */
export function mcpRequestWeight(body: unknown): number {
  if (!Array.isArray(body)) return messageWeight(body);
  let weight = 0;
  for (const message of body) weight += messageWeight(message);
  return weight;
}

/**
 * The edge's answer to a request the tenant's quota refused: 429 with the quota and its limit,
 * like a refused initialize; `UNAVAILABLE` (the daemon is stopping) as 503.
 */
export function admissionRefusal(error: RequestError): Refusal {
  if (error instanceof QuotaExceededError)
    return {
      status: 429,
      rpc: RPC_CODES.QUOTA,
      code: EDGE_ERROR_CODES.QUOTA_EXCEEDED,
      message: error.message,
      data: { quota: error.quota, limit: error.limit },
    };
  return { status: 503, rpc: RPC_CODES.INTERNAL_ERROR, code: EDGE_ERROR_CODES.UNAVAILABLE, message: error.message };
}

/**
 * The edge's answer when opening an API key's session failed on the tenant's side: its session
 * quota (429, like any refused initialize), or a request limit its configured session is over
 * (`limits.maxSessionBytes`, say: 413, the operator's to fix, said plainly rather than as a 500).
 * Undefined for any other failure.
 */
export function attachRefusal(error: unknown): Refusal | undefined {
  if (error instanceof RequestError && error.code === WIRE_ERROR_CODES.QUOTA_EXCEEDED)
    return { status: 429, rpc: RPC_CODES.QUOTA, code: EDGE_ERROR_CODES.QUOTA_EXCEEDED, message: error.message };
  if (error instanceof LimitExceededError)
    return {
      status: 413,
      rpc: RPC_CODES.INVALID_REQUEST,
      code: EDGE_ERROR_CODES.PAYLOAD_TOO_LARGE,
      message: error.message,
    };
  return undefined;
}
