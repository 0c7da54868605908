import type { IncomingMessage } from 'node:http';
import { EDGE_ERROR_CODES, RPC_CODES, type Refusal } from './edge-refusal';

const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'] as const;

/** Request headers a browser MCP client sends (answered to CORS preflights). */
const ALLOWED_HEADERS = 'authorization, content-type, accept, mcp-session-id, mcp-protocol-version, last-event-id';
/** Response headers a browser MCP client must be able to read. */
const EXPOSED_HEADERS = 'mcp-session-id, mcp-protocol-version, www-authenticate';

/**
 * Which browser origins may call the listener. Browsers send `Origin` on every cross-origin
 * request, so checking it stops DNS rebinding (a page of evil.example resolving its own name to
 * this listener: its `Origin` stays `http://evil.example:…`). A request without `Origin` comes
 * from a program, not a page, and is not affected. Allowed without configuration: the listener's
 * own origin in its loopback forms (`http://localhost:<port>`, `http://127.0.0.1:<port>`,
 * `http://[::1]:<port>`); everything else, `null` included, only when listed in
 * `http.allowedOrigins`.
 */
export class OriginPolicy {
  readonly #configured: ReadonlySet<string>;
  #own: ReadonlySet<string> = new Set();

  constructor(allowedOrigins: readonly string[]) {
    this.#configured = new Set(allowedOrigins);
  }

  /** The port the listener is bound to: its own loopback origins are allowed. */
  listeningOn(port: number): void {
    this.#own = new Set(LOOPBACK_HOSTS.map((host) => `http://${host}:${port}`));
  }

  /** The refusal of a request from an origin that is not allowed, or undefined to let it through. */
  check(req: IncomingMessage): Refusal | undefined {
    const origin = req.headers.origin;
    if (origin === undefined || this.#allows(origin)) return undefined;
    return {
      status: 403,
      rpc: RPC_CODES.UNAUTHORIZED,
      code: EDGE_ERROR_CODES.ORIGIN_NOT_ALLOWED,
      message: `requests from origin ${JSON.stringify(origin.slice(0, 200))} are not allowed; the operator lists browser origins under http.allowedOrigins.`,
    };
  }

  /** CORS headers for a request from an allowed origin (none without `Origin`). */
  corsHeaders(req: IncomingMessage): Record<string, string> {
    const origin = req.headers.origin;
    if (origin === undefined || !this.#allows(origin)) return {};
    return { 'access-control-allow-origin': origin, 'access-control-expose-headers': EXPOSED_HEADERS, vary: 'Origin' };
  }

  /** The answer to a CORS preflight (`OPTIONS`) from an allowed origin. */
  preflightHeaders(req: IncomingMessage): Record<string, string> {
    return {
      ...this.corsHeaders(req),
      'access-control-allow-methods': 'GET, POST, DELETE',
      'access-control-allow-headers': ALLOWED_HEADERS,
      'access-control-max-age': '600',
    };
  }

  #allows(origin: string): boolean {
    return this.#configured.has(origin) || this.#own.has(origin);
  }
}
