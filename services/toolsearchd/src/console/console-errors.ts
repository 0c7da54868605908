/**
 * Why the console refused a request. Pages branch on `code`, never on the message, which is
 * written for the person reading the page.
 */
export const CONSOLE_ERROR_CODES = {
  /** Not signed in, or a sign-in with something that is not a key of this tenant. */
  UNAUTHENTICATED: { status: 401 },
  /** Signed in, but the key lacks the role this page or action needs (or a session token / gateway key tried to sign in). */
  FORBIDDEN: { status: 403 },
  /** A form post without the session's CSRF token, or with another one. */
  CSRF_MISMATCH: { status: 403 },
  /** A form field missing, too long, or not of its kind. */
  BAD_REQUEST: { status: 400 },
  /** No such page, or no such held call / session for this tenant. */
  NOT_FOUND: { status: 404 },
  /** The form body is over the console's limit. */
  PAYLOAD_TOO_LARGE: { status: 413 },
  /** The form body stalled. */
  REQUEST_TIMEOUT: { status: 408 },
  /** The method is not one this path takes. */
  METHOD_NOT_ALLOWED: { status: 405 },
  /** Too many failed sign-ins from this address for this tenant lately. */
  TOO_MANY_ATTEMPTS: { status: 429 },
  /** The tenant's requests per second are used up (`quotas.requestsPerSecond`, shared with its NATS and MCP requests). */
  RATE_LIMITED: { status: 429 },
  /** The daemon is stopping. */
  UNAVAILABLE: { status: 503 },
  /** Too many live-update streams open on this replica. */
  TOO_MANY_STREAMS: { status: 503 },
} as const;
export type ConsoleErrorCode = keyof typeof CONSOLE_ERROR_CODES;

export class ConsoleError extends Error {
  constructor(
    readonly code: ConsoleErrorCode,
    message: string,
  ) {
    super(message);
  }

  get status(): number {
    return CONSOLE_ERROR_CODES[this.code].status;
  }
}
