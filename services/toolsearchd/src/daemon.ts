import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { connect, JSONCodec, type NatsConnection, type Service } from 'nats';
import { pino, type Logger } from 'pino';
import { createActor, type ActorRefFrom } from 'xstate';
import { errorPayload, handleToolDescribe, handleToolSearch } from '@toolsearch/bridge';
import { ToolsetSchema, type Toolset } from '@toolsearch/catalog';
import {
  AssembleRequestSchema,
  DescribeRequestSchema,
  ENDPOINTS,
  errorReply,
  EVENTS,
  OpenSessionRequestSchema,
  SearchRequestSchema,
  SessionIdSchema,
  subject,
  subjectPattern,
  McpAttachRequestSchema,
  McpDetachRequestSchema,
  SpawnRequestSchema,
  ToolsetDeleteRequestSchema,
  ToolsetPutRequestSchema,
  WIRE_ERROR_CODES,
  type EndpointDescriptor,
} from '@toolsearch/proto';
import type { DaemonConfig } from './config';
import { exceedsParent, narrowGrant } from './grant';
import { ToolsetRegistry, type RegistryChange } from './registry.adapter';
import { sessionMachine, tenantMachine } from './session.machine';
import { SessionStore, type SessionDescriptor } from './session-store.adapter';
import { McpPool, type McpServerConfig } from './mcp-pool.adapter';
import { parse, RequestError, serveRequest, type Handler } from './serve-request';
import { SurfaceBuilder } from './surface';
import { DispatchService } from './dispatch/dispatch-service';
import type { DispatchHooks, TurnContext } from './dispatch/dispatcher';

const codec = JSONCodec<unknown>();

/** Replica-to-replica: these sessions changed or closed; drop cached copies. */
const INVALIDATE_TEMPLATE = 'toolsearch.v1.{tenant}.sessions.evt.invalidate';

/**
 * toolsearchd: the composition root. Connects to NATS and Redis, follows the toolset registry,
 * serves the v1 contract on the NATS services framework (queue group: any number of replicas),
 * and keeps one xstate actor per open session under a supervisor per tenant.
 */
export class Daemon {
  readonly #config: DaemonConfig;
  readonly #log: Logger;
  readonly #surfaces: SurfaceBuilder;
  #nc: NatsConnection | undefined;
  #redis: Redis | undefined;
  #registry: ToolsetRegistry | undefined;
  #store: SessionStore | undefined;
  #service: Service | undefined;
  #mcp: McpPool | undefined;
  #dispatch: DispatchService | undefined;
  readonly #hooks: readonly DispatchHooks[];
  readonly #tenants = new Map<string, ActorRefFrom<typeof tenantMachine>>();
  /** Sessions held in memory on this replica, least recently used first (`tenant\u0000id`). */
  readonly #recent = new Map<string, SessionDescriptor>();
  #closing: Promise<void> | undefined;

  constructor(
    config: DaemonConfig,
    options: {
      logger?: Logger;
      env?: Readonly<Record<string, string | undefined>>;
      /** In-process pre- and post-call hooks, run on the real tool of every dispatched call. */
      hooks?: readonly DispatchHooks[];
    } = {},
  ) {
    this.#config = config;
    this.#hooks = options.hooks ?? [];
    this.#log = options.logger ?? pino({ level: config.log.level });
    this.#surfaces = new SurfaceBuilder(options.env ?? {});
  }

  get nats(): NatsConnection {
    if (this.#nc === undefined) throw new Error('the daemon is not started');
    return this.#nc;
  }

  async start(): Promise<void> {
    const { config } = { config: this.#config };
    this.#nc = await connect({ servers: config.nats.url, name: 'toolsearchd', maxReconnectAttempts: -1 });
    this.#redis = new Redis(config.redis.url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      lazyConnect: true,
    });
    this.#redis.on('error', (error: Error) => this.#log.warn({ err: error.message }, 'redis connection problem'));
    await this.#redis.connect();
    this.#store = new SessionStore(this.#redis, config.namespace.redisPrefix);
    this.#registry = await ToolsetRegistry.open(this.#nc, config.namespace.bucket);
    await this.#registry.start((change) => this.#onRegistryChange(change));
    void this.#watchConnection(this.#nc);
    const registry = this.#registry;
    this.#mcp = new McpPool(
      {
        put: async (tenant, toolset) =>
          this.#publishToolsetChanged(tenant, toolset.id, await registry.put(tenant, toolset), false),
        delete: async (tenant, id) => {
          await registry.delete(tenant, id);
          this.#publishToolsetChanged(tenant, id, registry.lastRevision, true);
        },
      },
      this.#log,
    );
    this.#dispatch = new DispatchService({
      config,
      nc: this.#nc,
      redis: this.#redis,
      mcp: this.#mcp,
      log: this.#log,
      hooks: this.#hooks,
      contextOf: (tenant, session) => this.#turnContext(tenant, session),
    });
    this.#nc.subscribe(subjectPattern(INVALIDATE_TEMPLATE), {
      callback: (error, message) => {
        if (error) return;
        try {
          const { tenant, sessions } = codec.decode(message.data) as { tenant: string; sessions: string[] };
          for (const id of sessions) this.#forget(tenant, id);
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
    const handlers: [EndpointDescriptor, Handler][] = [
      [ENDPOINTS.sessionsOpen, (p, body) => this.#open(p.tenant, body)],
      [ENDPOINTS.sessionsAssemble, (p, body) => this.#assemble(p.tenant, p.session, body)],
      [ENDPOINTS.sessionsSearch, (p, body) => this.#search(p.tenant, p.session, body)],
      [ENDPOINTS.sessionsDescribe, (p, body) => this.#describe(p.tenant, p.session, body)],
      [ENDPOINTS.sessionsClose, (p) => this.#close(p.tenant, p.session)],
      [ENDPOINTS.toolsetsPut, (p, body) => this.#putToolset(p.tenant, body)],
      [ENDPOINTS.toolsetsDelete, (p, body) => this.#deleteToolset(p.tenant, body)],
      [ENDPOINTS.mcpAttach, (p, body) => this.#attach(p.tenant, body)],
      [ENDPOINTS.mcpDetach, (p, body) => this.#detach(p.tenant, body)],
      [
        ENDPOINTS.sessionsDispatch,
        async (p, body) => this.#dispatcher.dispatch(await this.#requiredContext(p.tenant, p.session), body),
      ],
      [ENDPOINTS.subagentsSpawn, (p, body) => this.#spawn(p.tenant, body)],
      [ENDPOINTS.approvalsList, (p, body) => this.#dispatcher.list(p.tenant, body)],
      [ENDPOINTS.approvalsDecide, (p, body) => this.#dispatcher.decide(p.tenant, p.id, body)],
      [ENDPOINTS.approvalsGet, (p) => this.#dispatcher.get(p.tenant, p.id)],
    ];
    const served = new Set(handlers.map(([endpoint]) => endpoint.name));
    for (const endpoint of Object.values(ENDPOINTS)) {
      const handler: Handler =
        handlers.find(([candidate]) => candidate.name === endpoint.name)?.[1] ??
        (() =>
          Promise.reject(
            new RequestError(
              WIRE_ERROR_CODES.NOT_IMPLEMENTED,
              `${endpoint.name} is part of the v1 contract but this daemon does not serve it yet.`,
            ),
          ));
      this.#service.addEndpoint(endpoint.name.replace(/\./g, '_'), {
        subject: subjectPattern(endpoint.template),
        handler: (error, message) => {
          if (error) return;
          void serveRequest(endpoint, handler, message, {
            maxPayloadBytes: this.#config.limits.maxPayloadBytes,
            log: this.#log,
          });
        },
        metadata: { purpose: endpoint.purpose, implemented: String(served.has(endpoint.name)) },
      });
    }
    // Only report ready once the server knows every endpoint: a request right after start must find us.
    await this.#nc.flush();
    this.#log.info({ nats: config.nats.url, bucket: config.namespace.bucket }, 'toolsearchd serving');
  }

  /** On reconnect the registry watch resumes from the last revision it saw (no change is missed). */
  async #watchConnection(nc: NatsConnection): Promise<void> {
    for await (const status of nc.status()) {
      if (status.type !== 'reconnect') continue;
      this.#log.info('NATS connection back; resuming the registry watch');
      await this.#registry
        ?.resume()
        .catch((error: Error) => this.#log.warn({ err: error.message }, 'could not resume the registry watch'));
    }
  }

  get #required() {
    if (this.#registry === undefined || this.#store === undefined || this.#nc === undefined)
      throw new Error('the daemon is not started');
    return { registry: this.#registry, store: this.#store, nc: this.#nc };
  }

  get #dispatcher(): DispatchService {
    if (this.#dispatch === undefined) throw new Error('the daemon is not started');
    return this.#dispatch;
  }

  /** Dispatch, approvals and worker jobs (for embedders and tests: audit records, queues). */
  get dispatchService(): DispatchService {
    return this.#dispatcher;
  }

  async #requiredContext(tenant: string, session: string | undefined): Promise<TurnContext> {
    const descriptor = await this.#descriptor(tenant, session);
    return this.#contextFor(descriptor);
  }

  #contextFor(descriptor: SessionDescriptor): TurnContext {
    const surface = this.#surfaces.build(descriptor, this.#required.registry);
    return {
      tenant: descriptor.tenant,
      session: descriptor.id,
      bridge: surface.bridge,
      routing: surface.config.config.routing,
      policy: this.#dispatcher.policyOf(descriptor.tenant),
    };
  }

  /** The session's current surface, or undefined when it is gone (for approved calls run later). */
  async #turnContext(tenant: string, session: string): Promise<TurnContext | undefined> {
    const descriptor = await this.#required.store.load(tenant, session);
    return descriptor === undefined ? undefined : this.#contextFor(descriptor);
  }

  async #spawn(tenant: string, body: unknown) {
    const request = parse(SpawnRequestSchema, body);
    const parent = await this.#descriptor(tenant, request.parent);
    const opened = await this.#open(tenant, {
      role: request.role,
      parent: request.parent,
      grant: request.grant,
      model: request.model ?? parent.model,
      ...(request.config !== undefined ? { config: request.config } : {}),
      ...(request.coreTools !== undefined ? { coreTools: request.coreTools } : {}),
    });
    const job = await this.#dispatcher.queues.enqueue({
      tenant,
      session: opened.session.id,
      parent: request.parent,
      role: request.role,
      grant: opened.session.grant,
      task: request.task,
    });
    return { ok: true, session: opened.session, job };
  }

  async #descriptor(tenant: string, session: string | undefined): Promise<SessionDescriptor> {
    if (session === undefined || !SessionIdSchema.safeParse(session).success) {
      throw new RequestError(WIRE_ERROR_CODES.SESSION_NOT_FOUND, 'no such session for this tenant.');
    }
    const cached = this.#recent.get(`${tenant}\u0000${session}`);
    if (cached !== undefined) {
      this.#recent.delete(`${tenant}\u0000${session}`);
      this.#recent.set(`${tenant}\u0000${session}`, cached);
      return cached;
    }
    const descriptor = await this.#required.store.load(tenant, session);
    if (descriptor === undefined)
      throw new RequestError(WIRE_ERROR_CODES.SESSION_NOT_FOUND, 'no such session for this tenant.');
    this.#track(descriptor);
    return descriptor;
  }

  /**
   * Keeps a session's actor in memory, dropping the least recently used beyond the limit: actors
   * are a cache over Redis, and a dropped session comes back on its next request.
   */
  #track(descriptor: SessionDescriptor): void {
    const key = `${descriptor.tenant}\u0000${descriptor.id}`;
    this.#recent.delete(key);
    this.#recent.set(key, descriptor);
    this.#tenant(descriptor.tenant).send({ type: 'session.track', descriptor });
    while (this.#recent.size > this.#config.limits.maxSessionsInMemory) {
      const oldest = this.#recent.keys().next().value as string;
      this.#recent.delete(oldest);
      const [tenant = '', id = ''] = oldest.split('\u0000');
      this.#tenants.get(tenant)?.send({ type: 'session.untrack', id });
    }
  }

  /** Drops a session from this replica's memory (it reloads from Redis on its next request). */
  #forget(tenant: string, id: string): void {
    if (!this.#recent.delete(`${tenant}\u0000${id}`)) return;
    this.#tenants.get(tenant)?.send({ type: 'session.untrack', id });
  }

  /** Tells every replica that these sessions changed or closed, so none serves a stale copy. */
  #invalidate(tenant: string, ids: readonly string[]): void {
    if (ids.length === 0) return;
    this.#required.nc.publish(subject(INVALIDATE_TEMPLATE, { tenant }), codec.encode({ tenant, sessions: ids }));
  }

  /** Sessions whose actors are in memory on this replica. */
  get sessionsInMemory(): number {
    return this.#recent.size;
  }

  #tenant(tenant: string): ActorRefFrom<typeof tenantMachine> {
    let actor = this.#tenants.get(tenant);
    if (actor === undefined) {
      const machine = tenantMachine.provide({
        actors: {
          session: sessionMachine.provide({
            actions: {
              reassemble: (_, params) => {
                void this.#reassemble(params.descriptor).catch((error: Error) =>
                  this.#log.warn({ err: error.message, tenant, session: params.descriptor.id }, 're-assembly failed'),
                );
              },
            },
          }),
        },
      });
      actor = createActor(machine, { input: { tenant } });
      // One tenant's failure must never take the process (and every other tenant) down.
      actor.subscribe({
        error: (error) => this.#log.error({ err: String(error), tenant }, 'tenant supervisor failed'),
      });
      actor.start();
      this.#tenants.set(tenant, actor);
    }
    return actor;
  }

  async #open(tenant: string, body: unknown) {
    const { store } = this.#required;
    const request = parse(OpenSessionRequestSchema, body);
    let grant = request.grant;
    if (request.role !== 'gateway' && request.parent === undefined) {
      throw new RequestError(WIRE_ERROR_CODES.BAD_REQUEST, `a ${request.role} session needs a parent session.`);
    }
    if (request.parent !== undefined) {
      const parent = await this.#descriptor(tenant, request.parent);
      const reason = exceedsParent(request.grant, parent.grant);
      if (reason !== undefined)
        throw new RequestError(
          WIRE_ERROR_CODES.GRANT_EXCEEDS_PARENT,
          `a child's grant must stay within its parent's: ${reason}.`,
        );
      grant = narrowGrant(request.grant, parent.grant);
      // Core tools run through the parent's gateway (exec.core): a child gets only tools its parent has.
      const parentCore = new Set(parent.coreTools.map((tool) => tool.name));
      const extra = (request.coreTools ?? []).find((tool) => !parentCore.has(tool.name));
      if (extra !== undefined)
        throw new RequestError(
          WIRE_ERROR_CODES.GRANT_EXCEEDS_PARENT,
          `a child's core tools must be among its parent's: '${extra.name}' is not.`,
        );
    }
    const { warnings } = this.#surfaces.config(request.config);
    const descriptor: SessionDescriptor = {
      id: `s-${randomBytes(18).toString('base64url')}`,
      tenant,
      role: request.role,
      ...(request.parent !== undefined ? { parent: request.parent } : {}),
      grant,
      model: request.model,
      ...(request.config !== undefined ? { config: request.config } : {}),
      coreTools: request.coreTools ?? [],
      activated: false,
      createdAt: Date.now(),
    };
    await store.save(descriptor);
    const surface = this.#surfaces.build(descriptor, this.#required.registry);
    await store.swapHash(tenant, descriptor.id, surface.assembly.result.hash);
    this.#track(descriptor);
    return {
      ok: true,
      session: {
        id: descriptor.id,
        tenant,
        role: descriptor.role,
        ...(descriptor.parent ? { parent: descriptor.parent } : {}),
        grant,
        model: descriptor.model,
        warnings: [...warnings],
      },
    };
  }

  async #assemble(tenant: string, session: string | undefined, body: unknown) {
    const { format } = parse(AssembleRequestSchema, body);
    const descriptor = await this.#descriptor(tenant, session);
    const { result } = this.#surfaces.build(descriptor, this.#required.registry, format).assembly;
    if (result.mode === 'budget' && result.activated && !descriptor.activated)
      await this.#required.store.markActivated(tenant, descriptor.id);
    return {
      ok: true,
      tier: result.tier,
      listing_form: result.listing_form,
      activated: result.activated,
      mode: result.mode,
      format: result.format,
      tools: result.tools,
      visible_count: result.visible_count,
      deferred_count: result.deferred_count,
      deferred_tokens: result.deferred_tokens,
      listing_tokens: result.listing_tokens,
      budget_tokens: result.budget_tokens,
      tools_tokens: result.tools_tokens,
      hash: result.hash,
    };
  }

  async #search(tenant: string, session: string | undefined, body: unknown) {
    const request = parse(SearchRequestSchema, body);
    const { bridge } = this.#surfaces.build(await this.#descriptor(tenant, session), this.#required.registry);
    const { explain, ...args } = request;
    const outcome = handleToolSearch(bridge, args, { explain: explain === true });
    if (!outcome.ok) return this.#bridgeError(outcome.error);
    return outcome.explain !== undefined
      ? { ok: true, result: outcome.result, explain: outcome.explain }
      : { ok: true, result: outcome.result };
  }

  async #describe(tenant: string, session: string | undefined, body: unknown) {
    const request = parse(DescribeRequestSchema, body);
    const { bridge } = this.#surfaces.build(await this.#descriptor(tenant, session), this.#required.registry);
    const outcome = handleToolDescribe(bridge, request);
    return outcome.ok ? { ok: true, result: outcome.result } : this.#bridgeError(outcome.error);
  }

  #bridgeError(error: Parameters<typeof errorPayload>[0]) {
    const { error: message, code, ...details } = errorPayload(error);
    return errorReply(String(code), String(message), Object.keys(details).length > 0 ? details : undefined);
  }

  async #close(tenant: string, session: string | undefined) {
    const descriptor = await this.#descriptor(tenant, session);
    const closed = await this.#required.store.remove(tenant, descriptor.id);
    for (const id of closed) this.#forget(tenant, id);
    this.#invalidate(tenant, closed);
    return { ok: true, closed };
  }

  async #putToolset(tenant: string, body: unknown) {
    const { toolset } = parse(ToolsetPutRequestSchema, body);
    const parsed = ToolsetSchema.parse(toolset);
    const revision = await this.#required.registry.put(tenant, parsed);
    this.#publishToolsetChanged(tenant, parsed.id, revision, false);
    return { ok: true, id: parsed.id, revision };
  }

  async #deleteToolset(tenant: string, body: unknown) {
    const { id } = parse(ToolsetDeleteRequestSchema, body);
    const deleted = await this.#required.registry.delete(tenant, id);
    this.#publishToolsetChanged(tenant, id, this.#required.registry.lastRevision, true);
    return { ok: true, id, deleted };
  }

  async #attach(tenant: string, body: unknown) {
    const request = parse(McpAttachRequestSchema, body);
    if (request.transport.type === 'stdio' && !this.#config.mcp.allowedCommands.includes(request.transport.command)) {
      throw new RequestError(
        WIRE_ERROR_CODES.FORBIDDEN,
        `stdio MCP servers can only run commands the operator allowed (mcp.allowedCommands); '${request.transport.command}' is not one of them.`,
      );
    }
    const pool = this.#mcp;
    if (pool === undefined) throw new Error('the daemon is not started');
    const { toolset, tools } = await pool.attach(tenant, request);
    this.#dispatcher.executors.serveMcp(tenant, request.name, this.#config.namespace.queue);
    const revision =
      this.#required.registry.toolsets(tenant).get(toolset)?.revision ?? this.#required.registry.lastRevision;
    return { ok: true, toolset, tools, revision };
  }

  async #detach(tenant: string, body: unknown) {
    const { name } = parse(McpDetachRequestSchema, body);
    const detached = (await this.#mcp?.detach(tenant, name)) ?? false;
    this.#dispatcher.executors.stopServingMcp(tenant, name);
    return { ok: true, toolset: `mcp-${name}`, detached };
  }

  #publishToolsetChanged(tenant: string, toolset: string, revision: number, deleted: boolean): void {
    this.#required.nc.publish(
      subject(EVENTS.toolsetChanged.template, { tenant }),
      codec.encode({ tenant, toolset, revision, deleted }),
    );
  }

  /** A registry change (from any replica or writer): every open session of the tenant is told. */
  #onRegistryChange(change: RegistryChange): void {
    void (async () => {
      const { store } = this.#required;
      // Sessions not in memory (never seen here, or dropped) are loaded so every one is told.
      const actor = this.#tenant(change.tenant);
      const tracked = new Set(Object.keys(actor.getSnapshot().context.sessions));
      const untracked: SessionDescriptor[] = [];
      for (const id of await store.list(change.tenant)) {
        if (tracked.has(id)) continue;
        const descriptor = await store.load(change.tenant, id);
        if (descriptor !== undefined && descriptor.grant.toolsets.includes(change.toolsetId))
          untracked.push(descriptor);
      }
      actor.send({ type: 'toolsets.changed', toolsetId: change.toolsetId });
      for (const descriptor of untracked) await this.#reassemble(descriptor);
    })().catch((error: Error) =>
      this.#log.warn({ err: error.message, tenant: change.tenant }, 'could not fan out a toolset change'),
    );
  }

  /** Re-assembles one session and publishes its tier event if its surface changed (once across replicas). */
  async #reassemble(descriptor: SessionDescriptor): Promise<void> {
    const { store, registry, nc } = this.#required;
    const { result } = this.#surfaces.build(descriptor, registry).assembly;
    if (!(await store.swapHash(descriptor.tenant, descriptor.id, result.hash))) return;
    nc.publish(
      subject(EVENTS.sessionTier.template, { tenant: descriptor.tenant, session: descriptor.id }),
      codec.encode({
        tenant: descriptor.tenant,
        session: descriptor.id,
        tier: result.tier,
        listing_form: result.listing_form,
        deferred_count: result.deferred_count,
        listing_tokens: result.listing_tokens,
        hash: result.hash,
      }),
    );
  }

  /** Attaches an MCP server for a tenant on the operator's behalf (config-declared servers). */
  async attachMcp(tenant: string, server: McpServerConfig): Promise<{ toolset: string; tools: number }> {
    if (this.#mcp === undefined) throw new Error('the daemon is not started');
    const attached = await this.#mcp.attach(tenant, server);
    this.#dispatcher.executors.serveMcp(tenant, server.name, this.#config.namespace.queue);
    return attached;
  }

  /** Registers toolsets for a tenant directly (config-declared catalogs at start). */
  async registerToolsets(tenant: string, toolsets: readonly Toolset[]): Promise<void> {
    for (const toolset of toolsets) {
      const revision = await this.#required.registry.put(tenant, toolset);
      this.#publishToolsetChanged(tenant, toolset.id, revision, false);
    }
  }

  /** Stops serving, drains in-flight requests, and closes every connection. Idempotent. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      await this.#service?.stop().catch(() => undefined);
      await this.#dispatch?.close();
      await this.#mcp?.close();
      this.#registry?.stop();
      for (const actor of this.#tenants.values()) actor.stop();
      this.#tenants.clear();
      this.#recent.clear();
      await this.#nc?.drain().catch(() => undefined);
      this.#redis?.disconnect();
      this.#log.info('toolsearchd stopped');
    })();
    return this.#closing;
  }
}
