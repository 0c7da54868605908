import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { capConnectionsPerAddress } from './connection-cap';
import { bodyUnread, refuse } from './edge-refusal';
import type { HttpConfig } from './http-config';
import type { DaemonMetrics } from './metrics';
import type { McpFrontDoor } from './mcp-front-door';
import { OriginPolicy } from './origin-policy';

/** Readiness: each dependency and whether it answers. */
export type ReadinessCheck = () => Record<string, boolean>;

/** The `http` keys the listener applies itself (the front door applies the MCP ones). */
export type ListenerLimits = Pick<
  HttpConfig,
  'allowedOrigins' | 'headersTimeoutMs' | 'requestTimeoutMs' | 'maxConnectionsPerAddress'
>;

/**
 * The daemon's HTTP listener: `/mcp` (the MCP endpoint), `/console` (the web console for
 * approvers and operators, when enabled), `/metrics` (Prometheus), `/healthz`
 * (the process answers) and `/readyz` (NATS and Redis are connected and the toolset registry is
 * readable and watched: send traffic here).
 *
 * Its edge, in order: connections over `http.maxConnectionsPerAddress` are answered 429 on
 * accept; the request line and headers must arrive within `http.headersTimeoutMs` and the whole
 * request within `http.requestTimeoutMs` (Node answers 408 and closes); a browser `Origin` that is
 * not allowed gets 403 before anything else looks at the request; then the route.
 */
export class HttpFrontend {
  readonly #server: Server;
  readonly #log: Logger;
  readonly #origins: OriginPolicy;

  constructor(
    private readonly deps: {
      frontDoor: McpFrontDoor;
      metrics: DaemonMetrics;
      readiness: ReadinessCheck;
      log: Logger;
      limits: ListenerLimits;
      /** The web console under `/console` (console/web-console.ts), when enabled. */
      console?: { handle(req: IncomingMessage, res: ServerResponse): Promise<void>; close(): void };
    },
  ) {
    this.#log = deps.log;
    this.#origins = new OriginPolicy(deps.limits.allowedOrigins);
    const { headersTimeoutMs, requestTimeoutMs } = deps.limits;
    this.#server = createServer(
      {
        headersTimeout: headersTimeoutMs,
        requestTimeout: requestTimeoutMs,
        // Node checks both timeouts on this interval (30 s by default, which would let a
        // 10 s headers timeout run to 40 s).
        connectionsCheckingInterval: Math.min(Math.max(headersTimeoutMs / 4, 100), 5000),
      },
      (req, res) => {
        this.#route(req, res).catch((error: Error) => {
          this.#log.error({ err: error.message, path: req.url }, 'HTTP request failed');
          if (!res.headersSent) sendJson(req, res, 500, { error: 'internal error; it has been logged' });
          else res.end();
        });
      },
    );
    // `Expect: 100-continue` is answered by the route, once it has accepted the request: Node's
    // automatic "100 Continue" would invite the body of a client it is about to refuse.
    this.#server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) =>
      this.#server.emit('request', req, res),
    );
    capConnectionsPerAddress(this.#server, deps.limits.maxConnectionsPerAddress);
  }

  async listen(host: string, port: number): Promise<{ host: string; port: number }> {
    await new Promise<void>((resolve, reject) => {
      this.#server.once('error', reject);
      this.#server.listen(port, host, () => {
        this.#server.off('error', reject);
        resolve();
      });
    });
    const address = this.#server.address() as AddressInfo;
    this.#origins.listeningOn(address.port);
    return { host: address.address, port: address.port };
  }

  async #route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const refused = this.#origins.check(req);
    if (refused !== undefined) return refuse(req, res, refused);
    for (const [name, value] of Object.entries(this.#origins.corsHeaders(req))) res.setHeader(name, value);
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (this.deps.console !== undefined && (path === '/console' || path.startsWith('/console/')))
      return this.deps.console.handle(req, res);
    switch (path) {
      case '/mcp':
        if (req.method === 'OPTIONS') {
          res.writeHead(204, this.#origins.preflightHeaders(req));
          res.end();
          return;
        }
        if (req.method !== 'POST' && req.method !== 'GET' && req.method !== 'DELETE') {
          res.setHeader('allow', 'GET, POST, DELETE');
          return sendJson(req, res, 405, { error: 'the MCP endpoint takes POST, GET and DELETE' });
        }
        return this.deps.frontDoor.handle(req, res);
      case '/metrics': {
        const { contentType, body } = await this.deps.metrics.render();
        res.writeHead(200, { 'content-type': contentType });
        res.end(body);
        return;
      }
      case '/healthz':
        return sendJson(req, res, 200, { ok: true });
      case '/readyz': {
        const checks = this.deps.readiness();
        const ready = Object.values(checks).every(Boolean);
        return sendJson(req, res, ready ? 200 : 503, { ok: ready, checks });
      }
      default:
        return sendJson(req, res, 404, {
          error: 'not found; the daemon serves /mcp, /console, /metrics, /healthz and /readyz',
        });
    }
  }

  close(): Promise<void> {
    this.deps.console?.close();
    return new Promise((resolve) => {
      this.#server.close(() => resolve());
      this.#server.closeAllConnections();
    });
  }
}

/** A JSON answer; a body nobody read is not read to keep the connection (see `refuse`). */
function sendJson(req: IncomingMessage, res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', ...(bodyUnread(req) ? { connection: 'close' } : {}) });
  res.end(JSON.stringify(body));
}
