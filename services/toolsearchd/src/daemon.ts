import { JSONCodec, type NatsConnection, type Service } from 'nats';
import { pino, type Logger } from 'pino';
import type { Toolset } from '@toolsearch/catalog';
import { redactUrl } from '@toolsearch/client';
import { subjectPattern } from '@toolsearch/proto';
import type { DaemonConfig } from './config';
import { openConnections } from './connections';
import type { RedisClient } from './redis-client';
import { ToolsetRegistry } from './registry.adapter';
import { RegistryWatch, replicaMismatch } from './registry-watch';
import { SessionActors } from './session-actors';
import { TierFanout } from './tier-fanout';
import { SessionStore, type SessionDescriptor } from './session-store.adapter';
import { McpPool, type McpServerConfig } from './mcp-pool.adapter';
import { TenantGuards } from './outbound/tenant-guards';
import { addEndpoints } from './serve-request';
import { SurfaceBuilder } from './surface';
import { DispatchService } from './dispatch/dispatch-service';
import type { DispatchHooks, TurnContext } from './dispatch/dispatcher';
import { RoutingBudgets } from './routing-budgets';
import { ActivationLatch } from './activation-latch';
import { OperatorViews } from './operator-views';
import { SurfaceEndpoints } from './surface-endpoints';
import { ToolsetEndpoints } from './toolset-endpoints';
import { DaemonMetrics } from './http/metrics';
import { HttpFrontend } from './http/http-server';
import { McpFrontDoor } from './http/mcp-front-door';
import { FrontDoorSessions } from './http/front-door-sessions';
import { Authority } from './identity/authority';
import { QuotaGate, tenantQuotas } from './quotas';
import { FanoutScheduler } from './fanout-scheduler';
import { INVALIDATE_TEMPLATE, SessionLifecycle } from './session-lifecycle';
import { replyPolicy } from './identity/reply-policy';
import { CredentialBook } from './identity/credentials';
import { mcpKeyCaller, visibleOwner } from './identity/callers';
import { createVetting } from './vetting/vetting-module';
import { VettingEndpoints } from './vetting/vetting-endpoints';
import { createConsole } from './console/console-module';

const codec = JSONCodec<unknown>();

/**
 * toolsearchd: the composition root. Connects to NATS and Redis, follows the toolset registry,
 * serves the v1 contract on the NATS services framework (queue group: any number of replicas),
 * and keeps one xstate actor per open session (grouped per tenant).
 */
export class Daemon {
  readonly #config: DaemonConfig;
  readonly #log: Logger;
  readonly #surfaces: SurfaceBuilder;
  readonly #routingBudgets: RoutingBudgets;
  #latch: ActivationLatch | undefined;
  #nc: NatsConnection | undefined;
  #redis: RedisClient | undefined;
  #registry: ToolsetRegistry | undefined;
  #store: SessionStore | undefined;
  #service: Service | undefined;
  #mcp: McpPool | undefined;
  #dispatch: DispatchService | undefined;
  #fanout: TierFanout | undefined;
  #quotas: QuotaGate | undefined;
  readonly #hooks: readonly DispatchHooks[];
  readonly #operatorToolsets: Readonly<Record<string, readonly string[]>>;
  readonly #actors: SessionActors;
  readonly #reassembly: FanoutScheduler;
  readonly #metrics: DaemonMetrics;
  readonly #credentials: CredentialBook;
  #operator: OperatorViews | undefined;
  #surfaceViews: SurfaceEndpoints | undefined;
  #toolsetViews: ToolsetEndpoints | undefined;
  #lifecycle: SessionLifecycle | undefined;
  #http: HttpFrontend | undefined;
  #frontDoor: McpFrontDoor | undefined;
  #httpAddress: string | undefined;
  #watch: RegistryWatch | undefined;
  #closing: Promise<void> | undefined;

  constructor(
    config: DaemonConfig,
    options: {
      logger?: Logger;
      env?: Readonly<Record<string, string | undefined>>;
      /** In-process pre- and post-call hooks, run on the real tool of every dispatched call. */
      hooks?: readonly DispatchHooks[];
      /**
       * Toolset ids the operator declares per tenant (config catalogs and MCP servers): no tenant
       * request may replace them, from the first request on, before they are even registered.
       */
      operatorToolsets?: Readonly<Record<string, readonly string[]>>;
    } = {},
  ) {
    this.#config = config;
    this.#hooks = options.hooks ?? [];
    this.#operatorToolsets = options.operatorToolsets ?? {};
    this.#log = options.logger ?? pino({ level: config.log.level });
    this.#surfaces = new SurfaceBuilder(options.env ?? {}, { maxJsonDepth: config.limits.maxJsonDepth });
    this.#routingBudgets = new RoutingBudgets(config.limits.routingTestsPerSecond);
    this.#credentials = new CredentialBook(config.credentials);
    // Re-assemblies after a toolset change run in short slices, tenants taking turns (fairness).
    this.#reassembly = new FanoutScheduler({
      log: this.#log,
      run: (descriptor) => this.#fanout?.reassemble(descriptor) ?? Promise.resolve(),
    });
    this.#actors = new SessionActors({
      limit: config.limits.maxSessionsInMemory,
      log: this.#log,
      reassemble: (descriptor) => {
        this.#reassembly.enqueue(descriptor);
        return Promise.resolve();
      },
    });
    this.#metrics = new DaemonMetrics({
      sessionsInMemory: () => this.#actors.size,
      tierCounts: () => this.#actors.tierCounts(),
      approvalsPending: () => this.#dispatch?.approvals.pendingCount() ?? Promise.resolve(0),
      mcpServers: () => this.#mcp?.servers() ?? [],
    });
  }

  /** Base URL of the HTTP listener (`http://host:port`), once started with `http.enabled`. */
  get httpAddress(): string | undefined {
    return this.#httpAddress;
  }

  /** The Prometheus registry (for embedders that expose metrics themselves). */
  get metrics(): DaemonMetrics {
    return this.#metrics;
  }

  get nats(): NatsConnection {
    if (this.#nc === undefined) throw new Error('the daemon is not started');
    return this.#nc;
  }

  async start(): Promise<void> {
    const { config } = { config: this.#config };
    // Refuses to start without NATS and Redis authentication unless security.insecure says so.
    const connections = await openConnections(config, this.#log);
    this.#nc = connections.nc;
    this.#redis = connections.redis;
    this.#store = new SessionStore(this.#redis, config.namespace.redisPrefix);
    const { bucket } = config.namespace;
    // Every stored toolset passes the tenant's vetting first (scan, policy, pins).
    const vetting = createVetting({
      redis: this.#redis,
      nc: this.#nc,
      log: this.#log,
      config,
      observe: (scanMs, totalMs) => this.#metrics.observeVetting(scanMs / 1000, totalMs / 1000),
    });
    this.#registry = await ToolsetRegistry.open(this.#nc, bucket, config.limits, config.nats.kvReplicas, vetting.vet);
    const mismatch = replicaMismatch(bucket, config.nats.kvReplicas, this.#registry.replicas);
    if (mismatch !== undefined) this.#log.warn({ bucket, replicas: this.#registry.replicas }, mismatch);
    const watch = new RegistryWatch({ nc: this.#nc, registry: this.#registry, log: this.#log });
    this.#watch = watch;
    this.#latch = new ActivationLatch({
      store: this.#store,
      actors: this.#actors,
      invalidate: (tenant, ids) => this.#sessions.invalidate(tenant, ids),
    });
    const fanout = new TierFanout({
      nc: this.#nc,
      store: this.#store,
      registry: this.#registry,
      surfaces: this.#surfaces,
      actors: this.#actors,
      latch: this.#latch,
      reassembly: this.#reassembly,
      log: this.#log,
    });
    this.#fanout = fanout;
    const vettingViews = new VettingEndpoints({ ...vetting, registry: this.#registry, fanout });
    await this.#registry.start(
      (change) => fanout.onRegistryChange(change),
      () => watch.resume(),
    );
    watch.follow();
    const registry = this.#registry;
    this.#mcp = new McpPool(
      {
        put: async (tenant, toolset) =>
          this.#fanout?.publishToolsetChanged(tenant, toolset.id, await registry.put(tenant, toolset), false),
        delete: async (tenant, id) => {
          await registry.delete(tenant, id);
          this.#fanout?.publishToolsetChanged(tenant, id, registry.lastRevision, true);
        },
      },
      this.#log,
      { reconnect: config.mcp.reconnect },
    );
    this.#dispatch = new DispatchService({
      config,
      nc: this.#nc,
      redis: this.#redis,
      connector: connections.connector,
      mcp: this.#mcp,
      log: this.#log,
      hooks: this.#hooks,
      contextOf: (tenant, session) => this.#turnContext(tenant, session),
      admitHold: async (tenant) => (await this.#quotas?.admitHold(tenant))?.message,
    });
    this.#quotas = new QuotaGate({
      defaults: config.quotas,
      perTenant: tenantQuotas(config),
      source: {
        sessions: (tenant) => this.#required.store.count(tenant),
        toolsets: (tenant) => this.#toolsetEndpoints.usage(tenant),
        heldApprovals: (tenant) => this.#dispatcher.approvals.heldCount(tenant),
      },
      redis: this.#redis,
      prefix: config.namespace.redisPrefix,
    });
    const quotas = this.#quotas;
    this.#nc.subscribe(subjectPattern(INVALIDATE_TEMPLATE), {
      callback: (error, message) => {
        if (error) return;
        try {
          const { tenant, sessions } = codec.decode(message.data) as { tenant: string; sessions: string[] };
          for (const id of sessions) this.#actors.forget(tenant, id);
        } catch {
          // Not ours to answer.
        }
      },
    });
    this.#service = await this.#nc.services.add({
      name: 'toolsearch',
      version: '0.1.0',
      queue: config.namespace.queue,
      description: 'Tool search for LLM agent sessions',
    });
    const authority = new Authority({
      book: this.#credentials,
      descriptor: (tenant, session) => this.#sessions.descriptor(tenant, session),
      resolveToken: (token) => this.#required.store.resolveToken(token),
    });
    for (const [tenant, ids] of Object.entries(this.#operatorToolsets)) this.#toolsetEndpoints.reserve(tenant, ids);
    // The HTTP listener first: a port that is taken stops the start before any NATS request is served.
    if (config.http.enabled) await this.#startHttp();
    addEndpoints(
      this.#service,
      authority.guard(
        quotas.wrap({
          sessionsOpen: (p, body, caller) => this.#sessions.open(p.tenant, body, caller),
          sessionsAssemble: (p, body) => this.#surfaceEndpoints.assemble(p.tenant, p.session, body),
          sessionsSearch: (p, body) => this.#surfaceEndpoints.search(p.tenant, p.session, body),
          sessionsDescribe: (p, body) => this.#surfaceEndpoints.describe(p.tenant, p.session, body),
          sessionsDispatch: async (p, body) =>
            this.#dispatcher.dispatch(await this.#requiredContext(p.tenant, p.session), body),
          sessionsClose: (p) => this.#sessions.close(p.tenant, p.session),
          subagentsSpawn: (p, body, caller) => this.#sessions.spawn(p.tenant, body, caller),
          toolsetsPut: (p, body) => this.#toolsetEndpoints.put(p.tenant, body),
          toolsetsDelete: (p, body) => this.#toolsetEndpoints.delete(p.tenant, body),
          mcpAttach: (p, body) => this.#toolsetEndpoints.attach(p.tenant, body),
          mcpDetach: (p, body) => this.#toolsetEndpoints.detach(p.tenant, body),
          approvalsList: (p, body) => this.#dispatcher.list(p.tenant, body),
          // The rule admits approver keys only: the decision is recorded under the key's name.
          approvalsDecide: (p, body, caller) =>
            this.#decide(p.tenant, p.id, body, caller.kind === 'key' ? caller.name : ''),
          approvalsGet: (p) => this.#dispatcher.get(p.tenant, p.id),
          sessionsList: (p, body, caller) => this.#views.sessionsList(p.tenant, body, visibleOwner(caller)),
          sessionsShow: (p) => this.#views.sessionShow(p.tenant, p.session),
          toolsetsList: (p) => this.#views.toolsetsList(p.tenant),
          auditRecent: (p, body) => this.#views.auditRecent(p.tenant, body),
          tenantShow: async (p) => ({ ok: true, tenant: p.tenant, quotas: await quotas.report(p.tenant) }),
          toolsetsDiff: (p, body) => vettingViews.diff(p.tenant, body),
          toolsetsAccept: (p, body, caller) =>
            vettingViews.accept(p.tenant, body, caller.kind === 'key' ? caller.name : ''),
        }),
      ),
      {
        maxPayloadBytes: config.limits.maxPayloadBytes,
        maxJsonDepth: config.limits.maxJsonDepth,
        replyAllowed: replyPolicy(config.security),
        refuseEarly: (tenant) => quotas.refuseEarly(tenant),
        log: this.#log,
        observe: (endpoint, outcome, seconds) => this.#metrics.observeRequest(endpoint, outcome, seconds),
      },
    );
    // Only report ready once the server knows every endpoint: a request right after start must find us.
    await this.#nc.flush();
    this.#log.info({ nats: redactUrl(config.nats.url), bucket: config.namespace.bucket }, 'toolsearchd serving');
  }

  /** `approvals.<id>.decide` for a verified approver: over NATS and from the web console alike. */
  async #decide(tenant: string, id: string | undefined, body: unknown, approver: string) {
    const reply = await this.#dispatcher.decide(tenant, id, body, approver);
    this.#metrics.observeDecision(reply.approval.decision?.decision ?? 'unknown');
    return reply;
  }

  get #requiredLatch(): ActivationLatch {
    if (this.#latch === undefined) throw new Error('the daemon is not started');
    return this.#latch;
  }

  get #required() {
    if (this.#registry === undefined || this.#store === undefined || this.#nc === undefined)
      throw new Error('the daemon is not started');
    return { registry: this.#registry, store: this.#store, nc: this.#nc };
  }

  get #sessions(): SessionLifecycle {
    this.#lifecycle ??= new SessionLifecycle({
      store: this.#required.store,
      registry: this.#required.registry,
      surfaces: this.#surfaces,
      actors: this.#actors,
      nc: this.#required.nc,
      quotas: this.#quotas,
      queues: () => this.#dispatcher.queues,
      latch: () => this.#requiredLatch,
      maxToolBytes: this.#config.limits.maxToolBytes,
      grantLimits: {
        maxWildcards: this.#config.limits.maxGrantWildcards,
        maxTests: this.#config.limits.maxGrantTests,
      },
    });
    return this.#lifecycle;
  }

  get #surfaceEndpoints(): SurfaceEndpoints {
    this.#surfaceViews ??= new SurfaceEndpoints({
      registry: this.#required.registry,
      store: this.#required.store,
      surfaces: this.#surfaces,
      descriptor: (tenant, session) => this.#sessions.descriptor(tenant, session),
      noteTier: (tenant, session, tier) => this.#actors.noteTier(tenant, session, tier),
      observeSearch: (seconds) => this.#metrics.observeSearch(seconds),
      routingBudget: (tenant) => this.#routingBudgets.for(tenant),
      latch: this.#requiredLatch,
    });
    return this.#surfaceViews;
  }

  get #views(): OperatorViews {
    this.#operator ??= new OperatorViews({
      store: this.#required.store,
      registry: this.#required.registry,
      surfaces: this.#surfaces,
      audit: this.#dispatcher.audit,
      descriptor: (tenant, session) => this.#sessions.descriptor(tenant, session),
    });
    return this.#operator;
  }

  /** The HTTP listener: the MCP endpoint, metrics and health. */
  async #startHttp(): Promise<void> {
    const { nc } = this.#required;
    const sessions = new FrontDoorSessions({
      apiKeys: this.#config.tenants,
      resolveToken: (token) => this.#required.store.resolveToken(token),
      open: async (tenant, body, keyName) =>
        (await this.#sessions.open(tenant, body, mcpKeyCaller(keyName))).session.id,
      close: (tenant, session) => this.#sessions.close(tenant, session).then(() => undefined),
      descriptor: (tenant, session) => this.#sessions.descriptor(tenant, session),
      assembly: (tenant, session) => this.#surfaceEndpoints.assembly(tenant, session, 'mcp'),
      context: (tenant, session) => this.#requiredContext(tenant, session),
      dispatcher: () => this.#dispatcher.dispatcher,
      approval: (tenant, id) => this.#dispatcher.approvals.get(tenant, id),
      heldCallWaitMs: this.#config.http.heldCallWaitMs,
    });
    this.#frontDoor = new McpFrontDoor({
      backend: sessions,
      nc,
      log: this.#log,
      maxBodyBytes: this.#config.limits.maxPayloadBytes,
      maxJsonDepth: this.#config.limits.maxJsonDepth,
      limits: this.#config.http,
      observe: (method, outcome) => this.#metrics.observeMcpRequest(method, outcome),
    });
    this.#http = new HttpFrontend({
      frontDoor: this.#frontDoor,
      metrics: this.#metrics,
      readiness: () => ({
        ...(this.#watch?.readiness() ?? { nats: !nc.isClosed(), registry: false }),
        redis: this.#redis?.status === 'ready',
      }),
      log: this.#log,
      limits: this.#config.http,
      ...(this.#config.http.console.enabled ? { console: this.#webConsole() } : {}),
    });
    const { host, port } = await this.#http.listen(this.#config.http.host, this.#config.http.port);
    this.#httpAddress = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
    this.#log.info({ http: this.#httpAddress }, 'HTTP listening (/mcp, /console, /metrics, /healthz, /readyz)');
  }

  /** The web console, on the same parts as the NATS endpoints it mirrors. */
  #webConsole() {
    return createConsole({
      config: this.#config,
      credentials: this.#credentials,
      ...this.#required,
      redis: this.#redis ?? this.#notStarted(),
      dispatch: () => this.#dispatcher,
      views: () => this.#views,
      surface: () => this.#surfaceEndpoints,
      quotas: () => this.#quotas ?? this.#notStarted(),
      decide: (tenant, id, body, approver) => this.#decide(tenant, id, body, approver),
      log: this.#log,
    });
  }

  #notStarted(): never {
    throw new Error('the daemon is not started');
  }

  get #dispatcher(): DispatchService {
    if (this.#dispatch === undefined) throw new Error('the daemon is not started');
    return this.#dispatch;
  }

  /** Dispatch, approvals and worker jobs (for embedders and tests: audit records, queues). */
  get dispatchService(): DispatchService {
    return this.#dispatcher;
  }

  /** A session's current turn context (for embedders that call the dispatcher in-process). */
  turnContext(tenant: string, session: string): Promise<TurnContext> {
    return this.#requiredContext(tenant, session);
  }

  async #requiredContext(tenant: string, session: string | undefined): Promise<TurnContext> {
    const descriptor = await this.#sessions.descriptor(tenant, session);
    return this.#contextFor(descriptor);
  }

  #contextFor(descriptor: SessionDescriptor): TurnContext {
    const surface = this.#surfaces.build(descriptor, this.#required.registry);
    return {
      tenant: descriptor.tenant,
      session: descriptor.id,
      role: descriptor.role,
      bridge: surface.bridge,
      routing: surface.config.config.routing,
      policy: this.#dispatcher.policyOf(descriptor.tenant),
      routingBudget: this.#routingBudgets.for(descriptor.tenant),
    };
  }

  /** The session's current surface, or undefined when it is gone (for approved calls run later). */
  async #turnContext(tenant: string, session: string): Promise<TurnContext | undefined> {
    const descriptor = await this.#required.store.load(tenant, session);
    return descriptor === undefined ? undefined : this.#contextFor(descriptor);
  }

  /** Sessions whose actors are in memory on this replica. */
  get sessionsInMemory(): number {
    return this.#actors.size;
  }

  get #toolsetEndpoints(): ToolsetEndpoints {
    if (this.#fanout === undefined || this.#mcp === undefined) throw new Error('the daemon is not started');
    this.#toolsetViews ??= new ToolsetEndpoints({
      registry: this.#required.registry,
      fanout: this.#fanout,
      mcp: this.#mcp,
      executors: this.#dispatcher.executors,
      allowedCommands: this.#config.mcp.allowedCommands,
      outbound: new TenantGuards(this.#config.mcp.outbound, this.#config.tenants),
      log: this.#log,
      queue: this.#config.namespace.queue,
      ...(this.#quotas !== undefined ? { quotas: this.#quotas } : {}),
    });
    return this.#toolsetViews;
  }

  /** Attaches an MCP server for a tenant on the operator's behalf (config-declared servers). */
  attachMcp(tenant: string, server: McpServerConfig): Promise<{ toolset: string; tools: number }> {
    return this.#toolsetEndpoints.attachServer(tenant, server);
  }

  /** Registers toolsets for a tenant directly (config-declared catalogs at start). */
  registerToolsets(tenant: string, toolsets: readonly Toolset[]): Promise<void> {
    return this.#toolsetEndpoints.register(tenant, toolsets);
  }

  /** Stops serving, drains in-flight requests, and closes every connection. Idempotent. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      await this.#frontDoor?.close();
      await this.#http?.close();
      await this.#service?.stop().catch(() => undefined);
      await this.#dispatch?.close();
      await this.#mcp?.close();
      this.#watch?.close();
      this.#registry?.stop();
      this.#fanout?.close();
      this.#actors.stop();
      this.#quotas?.stop();
      this.#reassembly.stop();
      await this.#nc?.drain().catch(() => undefined);
      this.#redis?.disconnect();
      this.#log.info('toolsearchd stopped');
    })();
    return this.#closing;
  }
}
