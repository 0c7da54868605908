import { BRIDGE_LIMITS } from '@toolsearch/disclosure';
import { QuotaExceededError } from '../quotas';
import { queryCount, REQUEST_WEIGHTS } from '../request-weights';
import type { RequestError } from '../serve-request';
import { EDGE_ERROR_CODES, RPC_CODES, type Refusal } from './edge-refusal';

/**
 * What an `initialize` with a tenant API key counts: it opens a session, as `sessions.open` does over NATS
 * (`REQUEST_WEIGHTS`). With a session token it counts 1 (it opens nothing).
 */
export const INITIALIZE_WEIGHT_OPENING =
  typeof REQUEST_WEIGHTS.sessionsOpen === 'number' ? REQUEST_WEIGHTS.sessionsOpen : 1;

/**
 * What one JSON-RPC message of an `/mcp` POST counts against its tenant's requests per second,
 * as the same work over NATS would: `tools/list` 1, `tools/call` 1, a `tool_search` call 1 per
 * query (as `sessions.<s>.search`). Everything else (pings, notifications, responses) is free;
 * `initialize` is weighed where it is served (`INITIALIZE_WEIGHT_OPENING`).
 */
function messageWeight(message: unknown): number {
  if (typeof message !== 'object' || message === null) return 0;
  const { method, params } = message as { method?: unknown; params?: unknown };
  if (method === 'tools/list') return 1;
  if (method !== 'tools/call') return 0;
  const { name, arguments: args } = (params ?? {}) as { name?: unknown; arguments?: unknown };
  if (name !== 'tool_search') return 1;
  // Counted as a NATS search of the same queries, at most as many as the bridge runs.
  return Math.min(BRIDGE_LIMITS.maxQueries, queryCount(args));
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
