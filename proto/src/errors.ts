import { z } from 'zod';

/**
 * Stable error codes of wire replies. Clients branch on these, never on message text. Bridge
 * answers (`sessions.<s>.search`, `.describe`) may also carry the bridge's own codes
 * (BAD_ARGUMENTS, TOO_MANY, UNKNOWN_TOOL, …), which are the model-facing errors of those tools.
 */
export const WIRE_ERROR_CODES = {
  /** The request does not match its schema, or a subject token is malformed. */
  BAD_REQUEST: 'BAD_REQUEST',
  /** The payload is larger than the daemon accepts. */
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  /** No such session for this tenant (never says whether it exists for another tenant). */
  SESSION_NOT_FOUND: 'SESSION_NOT_FOUND',
  /** A child session asked for more than its parent's grant. */
  GRANT_EXCEEDS_PARENT: 'GRANT_EXCEEDS_PARENT',
  /** The request names a toolset the tenant does not have. */
  TOOLSET_NOT_FOUND: 'TOOLSET_NOT_FOUND',
  /**
   * The request carries no credential the daemon recognises (the `Authorization: Bearer …` NATS
   * header: a credential key, or the session token that `sessions.open` returned).
   */
  UNAUTHENTICATED: 'UNAUTHENTICATED',
  /**
   * The caller may not do this: its credential lacks the role, does not hold the session, the
   * toolset belongs to the operator, or a command is not on the daemon's allow list.
   */
  FORBIDDEN: 'FORBIDDEN',
  /**
   * A per-tenant quota of the daemon's configuration is used up (open sessions and their stored
   * bytes, toolsets, tools, toolset bytes, MCP servers, held calls, requests per second); the
   * message names the quota and its limit. Retry after freeing some, or ask the operator to raise it; for `requestsPerSecond`,
   * retry after a moment (costly work such as the first session on a large new catalog is counted
   * over the next seconds).
   */
  QUOTA_EXCEEDED: 'QUOTA_EXCEEDED',
  /** An MCP server could not be reached or did not answer its tool list. */
  MCP_UNREACHABLE: 'MCP_UNREACHABLE',
  /** A store the request needs (Redis, JetStream) is not answering; retry later. */
  UNAVAILABLE: 'UNAVAILABLE',
  /** No held call with this id for this tenant. */
  APPROVAL_NOT_FOUND: 'APPROVAL_NOT_FOUND',
  /** The held call was already decided (or expired); the first decision stands. */
  ALREADY_DECIDED: 'ALREADY_DECIDED',
  /** The decision names another tool or argument digest than the held call: nothing was decided. */
  DECISION_MISMATCH: 'DECISION_MISMATCH',
  /** Our fault: an unexpected failure inside the daemon. */
  INTERNAL: 'INTERNAL',
} as const;
export type WireErrorCode = (typeof WIRE_ERROR_CODES)[keyof typeof WIRE_ERROR_CODES];

export const WireErrorSchema = z.object({
  code: z.string().regex(/^[A-Z][A-Z0-9_]*$/),
  message: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
});
export type WireError = z.infer<typeof WireErrorSchema>;

export const ErrorReplySchema = z.object({ ok: z.literal(false), error: WireErrorSchema });
export type ErrorReply = z.infer<typeof ErrorReplySchema>;

/** Builds an error reply. */
export function errorReply(code: string, message: string, details?: Record<string, unknown>): ErrorReply {
  return { ok: false, error: details === undefined ? { code, message } : { code, message, details } };
}

/** A wire error rebuilt on the client: an Error with the reply's code and details. */
export class ToolsearchWireError extends Error {
  readonly code: string;
  readonly details: Record<string, unknown> | undefined;
  constructor(error: WireError) {
    super(error.message);
    this.name = 'ToolsearchWireError';
    this.code = error.code;
    this.details = error.details;
  }
}

/**
 * Codes of a call's result envelope (`{ ok, data, error }`), besides the bridge's own codes
 * (UNKNOWN_TOOL, NOT_IN_SESSION, INVALID_ARGUMENTS, …). They are what the model reads.
 */
export const CALL_ERROR_CODES = {
  /** Held for a human decision; the result arrives later as `evt.result`. */
  PENDING_APPROVAL: 'PENDING_APPROVAL',
  /** An approver said no. */
  DENIED: 'DENIED',
  /** Nobody decided in time; held calls fail closed. */
  EXPIRED: 'EXPIRED',
  /** The tenant's policy does not allow this tool. */
  BLOCKED_BY_POLICY: 'BLOCKED_BY_POLICY',
  /** A pre-call hook refused the call. */
  BLOCKED_BY_HOOK: 'BLOCKED_BY_HOOK',
  /** Too many calls in the current window (tenant, session or tool). */
  RATE_LIMITED: 'RATE_LIMITED',
  /** The tenant already has as many held calls as its quota allows: this one was not held, and did not run. */
  QUOTA_EXCEEDED: 'QUOTA_EXCEEDED',
  /** Nobody serves the tool's toolset right now. */
  NO_EXECUTOR: 'NO_EXECUTOR',
  /** The tool did not answer in time. */
  TIMEOUT: 'TIMEOUT',
  /** The tool ran and reported a failure. */
  TOOL_ERROR: 'TOOL_ERROR',
  /** The process running an approved call died mid-call; it is not run again (it may have had effects). */
  INTERRUPTED: 'INTERRUPTED',
  /** The session closed, or the tool left its grant, before an approved call could run. */
  SESSION_GONE: 'SESSION_GONE',
} as const;
