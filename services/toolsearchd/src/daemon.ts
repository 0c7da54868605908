import type { NatsConnection, Service } from 'nats';
import { pino, type Logger } from 'pino';
import type { Toolset } from '@toolsearch/catalog';
import { redactUrl } from '@toolsearch/client';
import { ENDPOINTS } from '@toolsearch/proto';
import { composeDaemon, type DaemonParts } from './composition';
import type { DaemonConfig } from './config';
import { openConnections } from './connections';
import type { DispatchService } from './dispatch/dispatch-service';
import type { DispatchHooks, TurnContext } from './dispatch/turn-types';
import { endpointHandlers } from './endpoint-handlers';
import { DaemonMetrics } from './http/metrics';
import { startHttp, type HttpListener } from './http/start-http';
import { Authority } from './identity/authority';
import { CredentialBook } from './identity/credentials';
import { replyPolicy } from './identity/reply-policy';
import type { McpServerConfig } from './mcp-pool.adapter';
import { DECISION_HEADROOM, DECISIONS } from './request-weights';
import { addEndpoints } from './serve-request';

export interface DaemonOptions {
  logger?: Logger;
  env?: Readonly<Record<string, string | undefined>>;
  /** In-process pre- and post-call hooks, run on the real tool of every dispatched call. */
  hooks?: readonly DispatchHooks[];
  /**
   * Toolset ids the operator declares per tenant (config catalogs and MCP servers): no tenant
   * request may replace them, from the first request on, before they are even registered.
   */
  operatorToolsets?: Readonly<Record<string, readonly string[]>>;
}

/**
 * toolsearchd: connects to NATS and Redis, builds its parts once (composition.ts), and serves the
 * v1 contract on the NATS services framework (queue group: any number of replicas) and, with
 * `http.enabled`, the MCP endpoint. Sessions are served by their actors (session-actors.ts).
 */
export class Daemon {
  readonly #config: DaemonConfig;
  readonly #log: Logger;
  readonly #options: DaemonOptions;
  /** Prometheus metrics; they read the parts once the daemon has started. */
  readonly metrics: DaemonMetrics;
  #parts: DaemonParts | undefined;
  #service: Service | undefined;
  #endpoints: ReturnType<typeof addEndpoints> | undefined;
  #http: HttpListener | undefined;
  #closing: Promise<void> | undefined;

  constructor(config: DaemonConfig, options: DaemonOptions = {}) {
    this.#config = config;
    this.#options = options;
    this.#log = options.logger ?? pino({ level: config.log.level });
    this.metrics = new DaemonMetrics({
      sessionsInMemory: () => this.#parts?.actors.size ?? 0,
      tierCounts: () => this.#parts?.actors.tierCounts() ?? new Map(),
      approvalsPending: () => this.#parts?.dispatch.approvals.pendingCount() ?? Promise.resolve(0),
      mcpServers: () => this.#parts?.mcp.servers() ?? [],
      heldTools: () => {
        const held = this.#parts?.surfaces.held;
        return {
          indexed: held?.indexedTools ?? 0,
          assembled: held?.assembledTools ?? 0,
          engineBuilds: held?.engineBuilds ?? 0,
        };
      },
    });
  }

  /** Base URL of the HTTP listener (`http://host:port`), once started with `http.enabled`. */
  get httpAddress(): string | undefined {
    return this.#http?.address;
  }

  get nats(): NatsConnection {
    return this.#started.nc;
  }

  async start(): Promise<void> {
    const config = this.#config;
    // Refuses to start without NATS and Redis authentication unless security.insecure says so.
    const connections = await openConnections(config, this.#log);
    const parts = await composeDaemon({
      config,
      log: this.#log,
      env: this.#options.env ?? {},
      hooks: this.#options.hooks ?? [],
      connections,
      metrics: this.metrics,
    });
    this.#parts = parts;
    for (const [tenant, ids] of Object.entries(this.#options.operatorToolsets ?? {}))
      parts.toolsetEndpoints.reserve(tenant, ids);
    this.#service = await parts.nc.services.add({
      name: 'toolsearch',
      version: '0.1.0',
      queue: config.namespace.queue,
      description: 'Tool search for LLM agent sessions',
    });
    const credentials = new CredentialBook(config.credentials);
    const authority = new Authority({
      book: credentials,
      descriptor: (tenant, session) => parts.sessions.descriptor(tenant, session),
      resolveToken: (token) => parts.store.resolveToken(token),
    });
    // The HTTP listener first: a port that is taken stops the start before any NATS request is served.
    if (config.http.enabled) this.#http = await startHttp(parts, this.metrics, credentials);
    const guarded = authority.guard(parts.quotas.wrap(endpointHandlers(parts, this.metrics)));
    const decisions = new Set([...DECISIONS].map((name) => ENDPOINTS[name].name));
    this.#endpoints = addEndpoints(this.#service, guarded, {
      maxPayloadBytes: config.limits.maxPayloadBytes,
      maxJsonDepth: config.limits.maxJsonDepth,
      replyAllowed: replyPolicy(config.security),
      // An approver's decision is refused only past the headroom (`DECISIONS`), early or not.
      refuseEarly: (tenant, endpoint) =>
        parts.quotas.refuseEarly(tenant, Date.now(), decisions.has(endpoint) ? DECISION_HEADROOM : 1),
      // A few ms past the window's end (timers run on the loop's clock, which may lag), and up to
      // 20 ms more so that tenants refused in the same second are not all answered at once.
      holdRefusalMs: () => parts.quotas.windowLeftMs() + 5 + Math.floor(Math.random() * 20),
      publish: (reply, data) => parts.nc.publish(reply, data),
      log: this.#log,
      observe: (endpoint, outcome, seconds) => this.metrics.observeRequest(endpoint, outcome, seconds),
    });
    // Only report ready once the server knows every endpoint: a request right after start must find us.
    await parts.nc.flush();
    this.#log.info({ nats: redactUrl(config.nats.url), bucket: config.namespace.bucket }, 'toolsearchd serving');
  }

  get #started(): DaemonParts {
    if (this.#parts === undefined) throw new Error('the daemon is not started');
    return this.#parts;
  }

  /** Dispatch, approvals and worker jobs (for embedders and tests: audit records, queues). */
  get dispatchService(): DispatchService {
    return this.#started.dispatch;
  }

  /** A session's current turn context (for embedders that call the dispatcher in-process). */
  async turnContext(tenant: string, session: string): Promise<TurnContext> {
    const parts = this.#started;
    return parts.contexts.of(await parts.sessions.descriptor(tenant, session));
  }

  /** Sessions whose actors are in memory on this replica. */
  get sessionsInMemory(): number {
    return this.#parts?.actors.size ?? 0;
  }

  /** Sessions whose last search this replica remembers for learning from use (usage-learning.ts). */
  get searchesRemembered(): number {
    return this.#parts?.usage.rememberedSessions ?? 0;
  }

  /** The MCP servers whose connections this replica holds, and whether each is connected. */
  mcpServers(): { tenant: string; server: string; connected: boolean }[] {
    return this.#parts?.mcp.servers() ?? [];
  }

  /** Attaches an MCP server for a tenant on the operator's behalf (config-declared servers). */
  attachMcp(tenant: string, server: McpServerConfig): Promise<{ toolset: string; tools: number }> {
    return this.#started.toolsetEndpoints.attachServer(tenant, server);
  }

  /** Registers toolsets for a tenant directly (config-declared catalogs at start). */
  registerToolsets(tenant: string, toolsets: readonly Toolset[]): Promise<void> {
    return this.#started.toolsetEndpoints.register(tenant, toolsets);
  }

  /** Stops serving, drains in-flight requests, and closes every connection. Idempotent. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      // Requests waiting for their turn (NATS and /mcp) are answered UNAVAILABLE first, while
      // the connections still send: none of them runs during the shutdown.
      this.#parts?.quotas.stopPacing();
      await new Promise((done) => setImmediate(done));
      await this.#http?.frontDoor.close();
      await this.#http?.http.close();
      await this.#service?.stop().catch(() => undefined);
      await this.#endpoints?.releaseHeldRefusals();
      await this.#parts?.stop();
      await this.#parts?.nc.drain().catch(() => undefined);
      this.#parts?.redis.disconnect();
      this.#log.info('toolsearchd stopped');
    })();
    return this.#closing;
  }
}
