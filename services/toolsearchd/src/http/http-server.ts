import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { DaemonMetrics } from './metrics';
import type { McpFrontDoor } from './mcp-front-door';

/** Readiness: each dependency and whether it answers. */
export type ReadinessCheck = () => Record<string, boolean>;

/**
 * The daemon's HTTP listener: `/mcp` (the MCP endpoint), `/metrics` (Prometheus), `/healthz`
 * (the process answers) and `/readyz` (NATS and Redis are connected: send traffic here).
 */
export class HttpFrontend {
  readonly #server: Server;
  readonly #log: Logger;

  constructor(
    private readonly deps: { frontDoor: McpFrontDoor; metrics: DaemonMetrics; readiness: ReadinessCheck; log: Logger },
  ) {
    this.#log = deps.log;
    this.#server = createServer((req, res) => {
      this.#route(req, res).catch((error: Error) => {
        this.#log.error({ err: error.message, path: req.url }, 'HTTP request failed');
        if (!res.headersSent) sendJson(res, 500, { error: 'internal error; it has been logged' });
        else res.end();
      });
    });
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
    return { host: address.address, port: address.port };
  }

  async #route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0];
    switch (path) {
      case '/mcp':
        if (req.method !== 'POST' && req.method !== 'GET' && req.method !== 'DELETE') {
          res.setHeader('allow', 'GET, POST, DELETE');
          return sendJson(res, 405, { error: 'the MCP endpoint takes POST, GET and DELETE' });
        }
        return this.deps.frontDoor.handle(req, res);
      case '/metrics': {
        const { contentType, body } = await this.deps.metrics.render();
        res.writeHead(200, { 'content-type': contentType });
        res.end(body);
        return;
      }
      case '/healthz':
        return sendJson(res, 200, { ok: true });
      case '/readyz': {
        const checks = this.deps.readiness();
        const ready = Object.values(checks).every(Boolean);
        return sendJson(res, ready ? 200 : 503, { ok: ready, checks });
      }
      default:
        return sendJson(res, 404, { error: 'not found; the daemon serves /mcp, /metrics, /healthz and /readyz' });
    }
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.#server.close(() => resolve());
      this.#server.closeAllConnections();
    });
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
