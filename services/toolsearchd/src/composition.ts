import { JSONCodec, type NatsConnection } from 'nats';
import type { Logger } from 'pino';
import { subjectPattern } from '@toolsearch/proto';
import { ActivationLatch } from './activation-latch';
import type { DaemonConfig } from './config';
import type { RedisClient, RedisConnector } from './redis-client';
import { DispatchService } from './dispatch/dispatch-service';
import type { DispatchHooks } from './dispatch/turn-types';
import { FanoutScheduler } from './fanout-scheduler';
import { FoundTools } from './found-tools';
import type { DaemonMetrics } from './http/metrics';
import { McpLeases } from './mcp-lease';
import { McpPool, mcpToolsetId } from './mcp-pool.adapter';
import { OperatorViews } from './operator-views';
import { TenantGuards } from './outbound/tenant-guards';
import { QuotaGate, tenantQuotas } from './quotas';
import { ToolsetRegistry } from './registry.adapter';
import { RegistryWatch, replicaMismatch } from './registry-watch';
import { RoutingBudgets } from './routing-budgets';
import { SessionActors } from './session-actors';
import { INVALIDATE_TEMPLATE, SessionLifecycle } from './session-lifecycle';
import { SessionStore } from './session-store.adapter';
import { SurfaceBuilder } from './surface';
import { SurfaceEndpoints } from './surface-endpoints';
import { TierFanout } from './tier-fanout';
import { ToolsetEndpoints } from './toolset-endpoints';
import { TurnContexts } from './turn-contexts';
import { UsageLearning } from './usage-learning';
import { createVetting } from './vetting/vetting-module';
import { VettingEndpoints } from './vetting/vetting-endpoints';

const codec = JSONCodec<unknown>();

/** Every collaborator of a running daemon, each built once (see `composeDaemon`). */
export interface DaemonParts {
  readonly config: DaemonConfig;
  readonly log: Logger;
  readonly nc: NatsConnection;
  readonly redis: RedisClient;
  readonly store: SessionStore;
  readonly registry: ToolsetRegistry;
  readonly watch: RegistryWatch;
  readonly surfaces: SurfaceBuilder;
  readonly actors: SessionActors;
  readonly reassembly: FanoutScheduler;
  readonly fanout: TierFanout;
  readonly latch: ActivationLatch;
  readonly found: FoundTools;
  readonly sessions: SessionLifecycle;
  readonly contexts: TurnContexts;
  readonly mcp: McpPool;
  readonly leases: McpLeases;
  readonly dispatch: DispatchService;
  readonly quotas: QuotaGate;
  readonly surfaceEndpoints: SurfaceEndpoints;
  readonly toolsetEndpoints: ToolsetEndpoints;
  readonly vettingEndpoints: VettingEndpoints;
  readonly views: OperatorViews;
  readonly routingBudgets: RoutingBudgets;
  readonly usage: UsageLearning;
  /** Stops what the parts run in the background, in order (connections are closed by the caller). */
  stop(): Promise<void>;
}

export interface CompositionInput {
  readonly config: DaemonConfig;
  readonly log: Logger;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly hooks: readonly DispatchHooks[];
  readonly connections: { nc: NatsConnection; redis: RedisClient; connector: RedisConnector };
  readonly metrics: DaemonMetrics;
}

/**
 * The daemon's composition root: builds every collaborator once, in dependency order, as readonly
 * parts. Where two need each other (a session's actor re-assembles through the fan-out, which tells
 * the actors of a change), the later one is reached through a closure that runs only once the
 * daemon serves.
 */
export async function composeDaemon(input: CompositionInput): Promise<DaemonParts> {
  const { config, log, hooks, metrics } = input;
  const { nc, redis, connector } = input.connections;
  const prefix = config.namespace.redisPrefix;
  const { bucket } = config.namespace;

  const surfaces = new SurfaceBuilder(input.env, {
    maxJsonDepth: config.limits.maxJsonDepth,
    // Assemblies and engines the caches did not hold for a tenant's request are charged to it in
    // full (what does not fit in its second is counted in the next ones): the caches are fair
    // between tenants, so only a tenant's own requests make it miss.
    charge: (tenant, weight) => quotas.charge(tenant, weight),
    limits: { maxIndexedTools: config.limits.maxIndexedTools, maxAssembledTools: config.limits.maxAssembledTools },
  });
  const routingBudgets = new RoutingBudgets(config.limits.routingTestsPerSecond);
  const usage = new UsageLearning({
    settings: config.learnFromUse,
    tenants: Object.entries(config.tenants).flatMap(([tenant, own]) => (own.learnFromUse ? [tenant] : [])),
  });
  const store = new SessionStore(redis, prefix);
  // Every stored toolset passes the tenant's vetting first (scan, policy, pins).
  const vetting = createVetting({
    redis,
    nc,
    log,
    config,
    observe: (scanMs, totalMs) => metrics.observeVetting(scanMs / 1000, totalMs / 1000),
  });
  const registry = await ToolsetRegistry.open(nc, bucket, config.limits, config.nats.kvReplicas, vetting.vet);
  const mismatch = replicaMismatch(bucket, config.nats.kvReplicas, registry.replicas);
  if (mismatch !== undefined) log.warn({ bucket, replicas: registry.replicas }, mismatch);
  const watch = new RegistryWatch({ nc, registry, log });

  // Re-assemblies after a toolset change run in short slices, tenants taking turns (fairness).
  const reassembly: FanoutScheduler = new FanoutScheduler({ log, run: (descriptor) => fanout.reassemble(descriptor) });
  const actors: SessionActors = new SessionActors({
    limit: config.limits.maxSessionsInMemory,
    maxBytes: config.limits.maxSessionBytesInMemory,
    log,
    effects: {
      reassemble: (descriptor) => reassembly.enqueue(descriptor),
      persistLatch: (descriptor) => latch.persist(descriptor),
    },
  });
  const latch: ActivationLatch = new ActivationLatch({
    store,
    actors,
    invalidate: (tenant, ids) => sessions.invalidate(tenant, ids),
  });
  const fanout: TierFanout = new TierFanout({ nc, store, registry, surfaces, actors, latch, reassembly, log });
  const found: FoundTools = new FoundTools({
    store,
    actors,
    surfaces,
    descriptor: (tenant, id) => sessions.descriptor(tenant, id),
    invalidate: (tenant, ids) => sessions.invalidate(tenant, ids),
    log,
  });
  const mcp = new McpPool(
    {
      put: async (tenant, toolset) =>
        fanout.publishToolsetChanged(tenant, toolset.id, await registry.put(tenant, toolset), false),
      delete: async (tenant, id) => {
        await registry.delete(tenant, id);
        fanout.publishToolsetChanged(tenant, id, registry.lastRevision, true);
      },
    },
    log,
    { reconnect: config.mcp.reconnect, charge: (tenant, weight) => quotas.charge(tenant, weight) },
  );
  const contexts = new TurnContexts({ config, surfaces, registry, store, routingBudgets });
  const dispatch: DispatchService = new DispatchService({
    config,
    nc,
    redis,
    connector,
    mcp,
    log,
    hooks,
    contextOf: (tenant, session) => contexts.stored(tenant, session),
    admitHold: async (tenant) => (await quotas.admitHold(tenant))?.message,
    holdLimit: (tenant) => quotas.limits(tenant).heldApprovals,
    noteFound: (tenant, session, names) => found.note(tenant, session, names),
    usage,
    charge: (tenant, weight) => quotas.charge(tenant, weight),
  });
  const quotas: QuotaGate = new QuotaGate({
    defaults: config.quotas,
    perTenant: tenantQuotas(config),
    source: {
      sessions: (tenant) => store.count(tenant),
      sessionBytes: (tenant) => store.bytes(tenant),
      toolsets: (tenant) => toolsetEndpoints.usage(tenant),
      heldApprovals: (tenant) => dispatch.approvals.heldCount(tenant),
    },
    redis,
    prefix,
  });
  const toolsetEndpoints: ToolsetEndpoints = new ToolsetEndpoints({
    registry,
    fanout,
    mcp,
    executors: dispatch.executors,
    allowedCommands: config.mcp.allowedCommands,
    outbound: new TenantGuards(config.mcp.outbound, config.tenants),
    log,
    queue: config.namespace.queue,
    quotas,
    leases: {
      claim: (tenant, server) => leases.claim(tenant, server),
      forget: (tenant, name) => leases.forget(tenant, name),
    },
  });
  const sessions: SessionLifecycle = new SessionLifecycle({
    store,
    registry,
    surfaces,
    actors,
    nc,
    quotas,
    queues: () => dispatch.queues,
    latch: () => latch,
    maxToolBytes: config.limits.maxToolBytes,
    maxSessionBytes: config.limits.maxSessionBytes,
    forgetClosed: (tenant, id) => usage.forget(tenant, id),
    grantLimits: { maxWildcards: config.limits.maxGrantWildcards, maxTests: config.limits.maxGrantTests },
  });
  const surfaceEndpoints = new SurfaceEndpoints({
    registry,
    store,
    surfaces,
    descriptor: (tenant, session) => sessions.descriptor(tenant, session),
    observeSearch: (seconds) => metrics.observeSearch(seconds),
    routingBudget: (tenant) => routingBudgets.for(tenant),
    latch,
    noteFound: (tenant, session, names) => found.note(tenant, session, names),
    usage,
    charge: (tenant, weight) => quotas.charge(tenant, weight),
  });
  const views = new OperatorViews({
    store,
    registry,
    surfaces,
    audit: dispatch.audit,
    descriptor: (tenant, session) => sessions.descriptor(tenant, session),
  });
  const vettingEndpoints = new VettingEndpoints({ ...vetting, registry, fanout });
  const leases: McpLeases = mcpLeases({ config, redis, nc, log, registry, fanout, mcp, toolsetEndpoints, dispatch });

  await registry.start(
    (change) => fanout.onRegistryChange(change),
    () => watch.resume(),
  );
  watch.follow();
  // Another replica changed or closed sessions: this one drops or ends its copies.
  nc.subscribe(subjectPattern(INVALIDATE_TEMPLATE), {
    callback: (error, message) => {
      if (error) return;
      try {
        sessions.onInvalidated(
          codec.decode(message.data) as { tenant: string; sessions: string[]; origin?: string; closed?: boolean },
        );
      } catch {
        // Not a message of ours.
      }
    },
  });

  return {
    config,
    log,
    nc,
    redis,
    store,
    registry,
    watch,
    surfaces,
    actors,
    reassembly,
    fanout,
    latch,
    found,
    sessions,
    contexts,
    mcp,
    leases,
    dispatch,
    quotas,
    surfaceEndpoints,
    toolsetEndpoints,
    vettingEndpoints,
    views,
    routingBudgets,
    usage,
    async stop() {
      await leases.stop();
      await dispatch.close();
      await mcp.close();
      watch.close();
      registry.stop();
      fanout.close();
      actors.stop();
      quotas.stop();
      reassembly.stop();
    },
  };
}

/** The leases of tenants' attached MCP servers, acting on this replica's pool and the registry. */
function mcpLeases(parts: {
  config: DaemonConfig;
  redis: RedisClient;
  nc: NatsConnection;
  log: Logger;
  registry: ToolsetRegistry;
  fanout: TierFanout;
  mcp: McpPool;
  toolsetEndpoints: ToolsetEndpoints;
  dispatch: DispatchService;
}): McpLeases {
  const { config, registry, mcp } = parts;
  return new McpLeases({
    redis: parts.redis,
    prefix: config.namespace.redisPrefix,
    nc: parts.nc,
    config: config.mcp.lease,
    log: parts.log,
    targets: {
      tenants: () => registry.tenants(),
      toolsets: (tenant) => registry.toolsets(tenant),
      holds: (tenant, name) => mcp.has(tenant, name),
      takeOver: (tenant, server) => parts.toolsetEndpoints.takeOver(tenant, server),
      drop: async (tenant, name) => {
        await mcp.detach(tenant, name, { keepToolset: true });
        parts.dispatch.executors.stopServingMcp(tenant, name);
      },
      markUnavailable: async (tenant, name, reason) => {
        const held = registry.toolsets(tenant).get(mcpToolsetId(name))?.toolset;
        // Written once per outage: a toolset already shown unavailable is left as it is.
        if (held === undefined || held.unavailable !== undefined) return;
        const revision = await registry.put(tenant, { ...held, unavailable: reason });
        parts.fanout.publishToolsetChanged(tenant, held.id, revision, false);
      },
    },
  });
}
