import type { Logger } from 'pino';
import { createActor, type ActorRefFrom } from 'xstate';
import { sessionMachine } from './session.machine';
import type { SessionDescriptor } from './session-store.adapter';

type SessionActor = ActorRefFrom<typeof sessionMachine>;

/**
 * The replica's in-memory sessions: one xstate actor per session it has seen, grouped by tenant,
 * least recently used dropped beyond `limit`. Actors are a cache over Redis; a dropped session
 * comes back on its next request.
 *
 * The actors are independent (not children of a per-tenant machine): xstate copies an actor's
 * whole children map on every spawn, which made one tenant with 10,000 sessions take about 45 s of
 * CPU to open them. Each actor's failure is observed, so it never takes the process down.
 */
export class SessionActors {
  /** Tenant → session id → actor. */
  readonly #tenants = new Map<string, Map<string, SessionActor>>();
  /** Least recently used first; keys are `tenant\u0000id`. */
  readonly #recent = new Map<string, SessionDescriptor>();
  /** The tier each held session was last assembled at (for the tier metric); same keys. */
  readonly #tiers = new Map<string, number>();
  readonly #limit: number;
  readonly #log: Logger;
  readonly #reassemble: (descriptor: SessionDescriptor) => void;

  constructor(options: { limit: number; log: Logger; reassemble: (descriptor: SessionDescriptor) => Promise<void> }) {
    this.#limit = options.limit;
    this.#log = options.log;
    this.#reassemble = (descriptor) =>
      void options
        .reassemble(descriptor)
        .catch((error: Error) =>
          this.#log.warn(
            { err: error.message, tenant: descriptor.tenant, session: descriptor.id },
            're-assembly failed',
          ),
        );
  }

  get size(): number {
    return this.#recent.size;
  }

  /** The cached descriptor, marked as just used; undefined when this replica does not hold it. */
  get(tenant: string, id: string): SessionDescriptor | undefined {
    const key = `${tenant}\u0000${id}`;
    const cached = this.#recent.get(key);
    if (cached !== undefined) {
      this.#recent.delete(key);
      this.#recent.set(key, cached);
    }
    return cached;
  }

  /** Keeps a session's actor in memory (updating its descriptor), dropping the least recently used beyond the limit. */
  track(descriptor: SessionDescriptor): void {
    const key = `${descriptor.tenant}\u0000${descriptor.id}`;
    this.#recent.delete(key);
    this.#recent.set(key, descriptor);
    let sessions = this.#tenants.get(descriptor.tenant);
    if (sessions === undefined) {
      sessions = new Map();
      this.#tenants.set(descriptor.tenant, sessions);
    }
    const existing = sessions.get(descriptor.id);
    if (existing !== undefined) existing.send({ type: 'session.descriptor', descriptor });
    else {
      const actor = createActor(sessionMachine, { id: descriptor.id, input: { descriptor } });
      actor.subscribe({
        error: (error) =>
          this.#log.error(
            { err: String(error), tenant: descriptor.tenant, session: descriptor.id },
            'session actor failed',
          ),
      });
      sessions.set(descriptor.id, actor.start());
    }
    while (this.#recent.size > this.#limit) {
      const oldest = this.#recent.keys().next().value as string;
      const [tenant = '', id = ''] = oldest.split('\u0000');
      this.forget(tenant, id);
    }
  }

  /** Drops a session from memory (it reloads from Redis on its next request). */
  forget(tenant: string, id: string): void {
    this.#recent.delete(`${tenant}\u0000${id}`);
    this.#tiers.delete(`${tenant}\u0000${id}`);
    const sessions = this.#tenants.get(tenant);
    const actor = sessions?.get(id);
    if (sessions === undefined || actor === undefined) return;
    sessions.delete(id);
    if (sessions.size === 0) this.#tenants.delete(tenant);
    actor.stop();
  }

  /** Records the tier a held session was just assembled at. */
  noteTier(tenant: string, id: string, tier: number): void {
    const key = `${tenant}\u0000${id}`;
    if (this.#recent.has(key)) this.#tiers.set(key, tier);
  }

  /** How many held sessions were last assembled at each tier. */
  tierCounts(): Map<number, number> {
    const counts = new Map<number, number>();
    for (const tier of this.#tiers.values()) counts.set(tier, (counts.get(tier) ?? 0) + 1);
    return counts;
  }

  /** Ids of the tenant's sessions held by this replica. */
  sessionIds(tenant: string): string[] {
    return [...(this.#tenants.get(tenant)?.keys() ?? [])];
  }

  /**
   * Re-assembles the tenant's sessions held here whose grant holds one of these toolsets, one
   * session per step of the returned iterator (the fan-out scheduler runs it a slice at a time).
   * The grant is checked here rather than by an event to each session's actor: 20,000 actor
   * events per change took a quarter of the daemon's time under a tenant putting toolsets
   * without pause, for a check that is one array lookup.
   */
  *toolsetsChanged(tenant: string, toolsetIds: readonly string[]): Generator<void> {
    for (const id of this.#tenants.get(tenant)?.keys() ?? []) {
      const descriptor = this.#recent.get(`${tenant}\u0000${id}`);
      if (descriptor !== undefined && toolsetIds.some((toolset) => descriptor.grant.toolsets.includes(toolset)))
        this.#reassemble(descriptor);
      yield;
    }
  }

  /** Whether this replica holds the session in memory. */
  holds(tenant: string, id: string): boolean {
    return this.#tenants.get(tenant)?.has(id) === true;
  }

  stop(): void {
    for (const sessions of this.#tenants.values()) for (const actor of sessions.values()) actor.stop();
    this.#tenants.clear();
    this.#recent.clear();
    this.#tiers.clear();
  }
}
