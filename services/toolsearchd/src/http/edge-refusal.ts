import type { IncomingMessage, ServerResponse } from 'node:http';
import { WIRE_ERROR_CODES } from '@toolsearch/proto';

/**
 * Stable codes of the HTTP edge's refusals, in `error.data.code` of the JSON-RPC error body (MCP
 * clients read that; the JSON-RPC `error.code` number only says which family).
 */
export const EDGE_ERROR_CODES = {
  UNAUTHENTICATED: WIRE_ERROR_CODES.UNAUTHENTICATED,
  FORBIDDEN: WIRE_ERROR_CODES.FORBIDDEN,
  BAD_REQUEST: WIRE_ERROR_CODES.BAD_REQUEST,
  SESSION_NOT_FOUND: WIRE_ERROR_CODES.SESSION_NOT_FOUND,
  PAYLOAD_TOO_LARGE: WIRE_ERROR_CODES.PAYLOAD_TOO_LARGE,
  QUOTA_EXCEEDED: WIRE_ERROR_CODES.QUOTA_EXCEEDED,
  UNAVAILABLE: WIRE_ERROR_CODES.UNAVAILABLE,
  /** A browser page from an origin the listener does not allow (`http.allowedOrigins`). */
  ORIGIN_NOT_ALLOWED: 'ORIGIN_NOT_ALLOWED',
  /** The request body stalled for `http.bodyIdleTimeoutMs`. */
  REQUEST_TIMEOUT: 'REQUEST_TIMEOUT',
} as const;
export type EdgeErrorCode = (typeof EDGE_ERROR_CODES)[keyof typeof EDGE_ERROR_CODES];

/** JSON-RPC error numbers of HTTP-level refusals (the spec leaves -32000…-32099 to servers). */
export const RPC_CODES = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  INTERNAL_ERROR: -32603,
  UNAUTHORIZED: -32001,
  NO_SESSION: -32002,
  QUOTA: -32003,
} as const;

/** One refusal at the edge: nothing behind the edge saw the request. */
export interface Refusal {
  readonly status: number;
  readonly rpc: number;
  readonly code: EdgeErrorCode;
  readonly message: string;
  /** More for the client to act on (the quota and its limit, …), merged into `error.data`. */
  readonly data?: Readonly<Record<string, unknown>>;
}

/** The JSON body of a refusal (a JSON-RPC error without a request id). */
export function refusalBody(refusal: Refusal): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    error: { code: refusal.rpc, message: refusal.message, data: { code: refusal.code, ...refusal.data } },
    id: null,
  });
}

/** Whether the request announced a body (a length above zero, or chunks) that has not all arrived. */
export function bodyUnread(req: IncomingMessage): boolean {
  const length = Number(req.headers['content-length'] ?? 0);
  return (req.headers['transfer-encoding'] !== undefined || length > 0) && !req.complete;
}

/**
 * Answers a refusal. When the request's body has not been read, the answer carries
 * `Connection: close`: Node closes the socket once it is sent instead of reading the rest of the
 * body to reuse the connection (an unauthenticated client must not make us read its body, and a
 * client whose body was cut off must open a new connection rather than find a half-read one).
 */
export function refuse(req: IncomingMessage, res: ServerResponse, refusal: Refusal): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const body = refusalBody(refusal);
  res.writeHead(refusal.status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    ...(refusal.status === 401 ? { 'www-authenticate': 'Bearer realm="toolsearch"' } : {}),
    ...(bodyUnread(req) ? { connection: 'close' } : {}),
  });
  res.end(body);
}
