import { randomBytes } from 'node:crypto';
import { JSONCodec, type NatsConnection } from 'nats';
import type { Toolset } from '@toolsearch/catalog';
import {
  type Grant,
  OpenSessionRequestSchema,
  SessionIdSchema,
  subject,
  SpawnRequestSchema,
  WIRE_ERROR_CODES,
} from '@toolsearch/proto';
import type { ActivationLatch } from './activation-latch';
import type { WorkerQueues } from './dispatch/worker-queues.adapter';
import { ancestorAllowsOf, exceedsParent, grantTests, grantWarnings, narrowGrant, type AncestorAllows } from './grant';
import { ownerFor } from './identity/authority';
import { assertSessionSize, assertToolSizes } from './json-limits';
import type { Caller } from './identity/credentials';
import type { QuotaGate } from './quotas';
import { QuotaExceededError } from './quota-settings';
import type { ToolsetRegistry } from './registry.adapter';
import { parse, RequestError } from './serve-request';
import type { SessionActors } from './session-actors';
import { SessionClosedError, TurnQueueFullError } from './session.machine';
import { storedBytes, type SessionDescriptor, type SessionStore } from './session-store.adapter';
import type { SurfaceBuilder } from './surface';

const codec = JSONCodec<unknown>();

/**
 * Grant pattern tests that count as one unit of `requestsPerSecond` (a search query counts one
 * and costs about as much as this many tests).
 */
const GRANT_TESTS_PER_UNIT = 10_000;

/** Replica-to-replica: these sessions changed or closed; drop cached copies. */
export const INVALIDATE_TEMPLATE = 'toolsearch.v1.{tenant}.sessions.evt.invalidate';

/**
 * A session's life: opening it (owner, ancestors, grant within the parent's, quota), spawning a
 * child with a worker job, finding it (memory first, then Redis), and closing it with its
 * children on every replica. The callers were verified by the endpoint's guard before.
 */
export class SessionLifecycle {
  /** This replica's mark on its invalidation messages (it does not act on its own). */
  readonly replica = randomBytes(9).toString('base64url');

  constructor(
    private readonly deps: {
      store: SessionStore;
      registry: ToolsetRegistry;
      surfaces: SurfaceBuilder;
      actors: SessionActors;
      nc: NatsConnection;
      quotas: QuotaGate | undefined;
      queues: () => WorkerQueues;
      /** Keeps a budget-gated session on once its first assembly turned it on. */
      latch: () => ActivationLatch;
      /** `limits.maxToolBytes`, for the core tools a session brings. */
      maxToolBytes: number;
      /** `limits.maxSessionBytes`, for a session as stored (its grant, config and core tools). */
      maxSessionBytes: number;
      /** `limits.maxGrantWildcards` and `limits.maxGrantTests`: what filtering by a grant may cost. */
      grantLimits: { maxWildcards: number; maxTests: number };
      /** Told each session that closed, here or on another replica (drops what it left in memory). */
      forgetClosed?: (tenant: string, id: string) => void;
    },
  ) {}

  async spawn(tenant: string, body: unknown, caller: Caller) {
    const request = parse(SpawnRequestSchema, body);
    const parent = await this.descriptor(tenant, request.parent);
    const opened = await this.open(
      tenant,
      {
        role: request.role,
        parent: request.parent,
        grant: request.grant,
        model: request.model ?? parent.model,
        ...(request.config !== undefined ? { config: request.config } : {}),
        ...(request.coreTools !== undefined ? { coreTools: request.coreTools } : {}),
      },
      caller,
    );
    // The job carries the child's token: the worker acts on its own session, and only on it.
    const job = await this.deps.queues().enqueue({
      tenant,
      session: opened.session.id,
      parent: request.parent,
      role: request.role,
      grant: opened.session.grant,
      token: opened.token,
      task: request.task,
    });
    return { ok: true as const, session: opened.session, token: opened.token, job };
  }

  async descriptor(tenant: string, session: string | undefined): Promise<SessionDescriptor> {
    if (session === undefined || !SessionIdSchema.safeParse(session).success) {
      throw new RequestError(WIRE_ERROR_CODES.SESSION_NOT_FOUND, 'no such session for this tenant.');
    }
    const cached = this.deps.actors.get(tenant, session);
    if (cached !== undefined) return cached;
    const descriptor = await this.deps.store.load(tenant, session);
    if (descriptor === undefined)
      throw new RequestError(WIRE_ERROR_CODES.SESSION_NOT_FOUND, 'no such session for this tenant.');
    this.deps.actors.track(descriptor);
    return descriptor;
  }

  /**
   * Runs a turn of the session through its actor: after the session's earlier turns, against the
   * descriptor the actor holds when it starts. A turn refused because the session closed first
   * answers `SESSION_NOT_FOUND`; one beyond the session's `MAX_WAITING_TURNS` answers
   * `QUOTA_EXCEEDED` (the waiting turns hold memory and a caller's request each).
   */
  async turn<T>(tenant: string, session: string | undefined, run: (descriptor: SessionDescriptor) => Promise<T>) {
    const descriptor = await this.descriptor(tenant, session);
    try {
      return await this.deps.actors.turn(descriptor, run);
    } catch (error) {
      if (error instanceof SessionClosedError)
        throw new RequestError(WIRE_ERROR_CODES.SESSION_NOT_FOUND, `no such session for this tenant: ${error.message}`);
      if (error instanceof TurnQueueFullError) throw new RequestError(WIRE_ERROR_CODES.QUOTA_EXCEEDED, error.message);
      throw error;
    }
  }

  /** Tells the other replicas that these sessions changed (or closed), so none serves a stale copy. */
  invalidate(tenant: string, ids: readonly string[], closed = false): void {
    if (ids.length === 0) return;
    this.deps.nc.publish(
      subject(INVALIDATE_TEMPLATE, { tenant }),
      codec.encode({ tenant, sessions: ids, origin: this.replica, ...(closed ? { closed: true } : {}) }),
    );
  }

  /** Acts on another replica's invalidation: closed sessions end here too, changed ones reload. */
  onInvalidated(message: { tenant: string; sessions: readonly string[]; origin?: string; closed?: boolean }): void {
    if (message.origin === this.replica) return;
    for (const id of message.sessions)
      if (message.closed === true) {
        this.deps.actors.close(message.tenant, id, undefined);
        this.deps.forgetClosed?.(message.tenant, id);
      } else this.deps.actors.forget(message.tenant, id);
  }

  /**
   * Opens a session for a verified caller (the endpoint's guard checked it holds any `parent`);
   * the session records its owner and ancestors, which decide who may act on it later.
   */
  async open(tenant: string, body: unknown, caller: Caller) {
    const { store } = this.deps;
    const request = parse(OpenSessionRequestSchema, body);
    assertToolSizes(request.coreTools ?? [], this.deps.maxToolBytes, 'coreTools');
    await this.deps.quotas?.admitSession(tenant);
    let grant = request.grant;
    if (request.role !== 'gateway' && request.parent === undefined) {
      throw new RequestError(WIRE_ERROR_CODES.BAD_REQUEST, `a ${request.role} session needs a parent session.`);
    }
    let parent: SessionDescriptor | undefined;
    let ancestorAllows: AncestorAllows = [];
    const registered = [...this.deps.registry.toolsets(tenant).values()].map((entry) => entry.toolset);
    if (request.parent !== undefined) {
      parent = await this.descriptor(tenant, request.parent);
      ancestorAllows = ancestorAllowsOf(parent.grant, parent.ancestorAllows);
      this.#chargeGrant(tenant, request.grant, ancestorAllows, registered);
      const reason = exceedsParent(request.grant, parent.grant, parent.ancestorAllows, registered);
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
    } else this.#chargeGrant(tenant, request.grant, ancestorAllows, registered);
    const warnings = [
      ...grantWarnings(request.grant, registered),
      ...this.deps.surfaces.config(request.config, tenant).warnings,
    ];
    const owner = ownerFor(caller, parent);
    const fresh: Omit<SessionDescriptor, 'tokenDigest'> = {
      id: `s-${randomBytes(18).toString('base64url')}`,
      tenant,
      role: request.role,
      ...(request.parent !== undefined ? { parent: request.parent } : {}),
      grant,
      model: request.model,
      ...(request.config !== undefined ? { config: request.config } : {}),
      coreTools: request.coreTools ?? [],
      activated: false,
      found: [],
      createdAt: Date.now(),
      ...(owner !== undefined ? { owner } : {}),
      lineage: parent !== undefined ? [...parent.lineage, parent.id] : [],
      ancestorAllows: ancestorAllows.map((list) => [...list]),
    };
    // As stored: the token's digest is 64 hex characters whatever the token.
    assertSessionSize(storedBytes({ ...fresh, tokenDigest: '0'.repeat(64) }), this.deps.maxSessionBytes);
    const maxBytes = this.deps.quotas?.limits(tenant).sessionBytes;
    const created = await store.create(fresh, maxBytes);
    if (!created.ok)
      throw new QuotaExceededError(
        'sessionBytes',
        maxBytes ?? 0,
        `the tenant's open sessions take ${created.stored} bytes and this one would take ${created.bytes} more`,
      );
    const { token, descriptor } = created;
    const surface = this.deps.surfaces.forRequest(descriptor, this.deps.registry);
    await store.swapHash(tenant, descriptor.id, surface.assembly.result.hash);
    this.deps.actors.track(descriptor);
    if (parent !== undefined) this.deps.actors.childSpawned(tenant, parent.id, descriptor.id);
    // The session's actor learns its first tier, and latches an `auto:N` bridge that is on already.
    await this.deps.latch().note(descriptor, surface.assembly.result);
    return {
      ok: true as const,
      token,
      session: {
        id: descriptor.id,
        tenant,
        role: descriptor.role,
        ...(descriptor.parent ? { parent: descriptor.parent } : {}),
        grant,
        model: descriptor.model,
        warnings,
      },
    };
  }

  /**
   * Refuses a grant whose wildcard patterns would cost too much to apply: each is tested against
   * every name of every tool of the granted toolsets, on the one thread every tenant shares. What
   * it does cost is charged to the tenant's requests per second (one unit per
   * GRANT_TESTS_PER_UNIT tests), so opening sessions with costly grants throttles itself.
   */
  #chargeGrant(tenant: string, grant: Grant, ancestors: AncestorAllows, registered: readonly Toolset[]): void {
    const { maxWildcards, maxTests } = this.deps.grantLimits;
    const wildcards = [grant.allow ?? [], grant.deny ?? [], ...ancestors]
      .flat()
      .filter((pattern) => pattern.includes('*')).length;
    if (wildcards > maxWildcards)
      throw new RequestError(
        WIRE_ERROR_CODES.BAD_REQUEST,
        `grant: ${wildcards} patterns with '*' (with the parent's), more than limits.maxGrantWildcards (${maxWildcards}); name tools exactly (no limit) or use fewer wildcards.`,
      );
    const tests = grantTests(grant, ancestors, registered);
    if (tests > maxTests)
      throw new RequestError(
        WIRE_ERROR_CODES.BAD_REQUEST,
        `grant: its '*' patterns over the granted toolsets' tools make ${tests} name tests, more than limits.maxGrantTests (${maxTests}); grant fewer toolsets, name tools exactly, or use fewer wildcards.`,
      );
    // Applied twice when it opens (the surface and the warnings): counted twice.
    this.deps.quotas?.charge(tenant, Math.floor((2 * tests) / GRANT_TESTS_PER_UNIT));
  }

  async close(tenant: string, session: string | undefined) {
    const descriptor = await this.descriptor(tenant, session);
    const closed = await this.deps.store.remove(tenant, descriptor.id);
    // A turn running now finishes; turns waiting behind it are refused.
    for (const id of closed) {
      this.deps.actors.close(tenant, id, id === descriptor.id ? descriptor.parent : undefined);
      this.deps.forgetClosed?.(tenant, id);
    }
    this.invalidate(tenant, closed, true);
    return { ok: true as const, closed };
  }
}
