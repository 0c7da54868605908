import type { Logger } from 'pino';
import { createActor, type ActorRefFrom, type SimulatedClock } from 'xstate';

/** xstate's timer source (its `Clock` interface, which the package does not export by name). */
type Clock = Pick<SimulatedClock, 'setTimeout' | 'clearTimeout'>;
import { grantReaches } from './grant';
import { sessionMachine, type AssembledFacts } from './session.machine';
import type { SessionDescriptor } from './session-store.adapter';

type SessionActor = ActorRefFrom<typeof sessionMachine>;

/** How long an idle session actor stays in memory by default (its state is in Redis). */
export const DEFAULT_SESSION_IDLE_MS = 10 * 60_000;

/** What the session actors do to the world (provided to every actor's machine). */
export interface SessionEffects {
  /** Re-assemble the session and publish its tier event if its surface changed (may be queued). */
  reassemble(descriptor: SessionDescriptor): void;
  /** Store that the session's `auto:N` bridge latched on, and tell the other replicas. */
  persistLatch(descriptor: SessionDescriptor): Promise<void>;
}

const keyOf = (tenant: string, id: string) => `${tenant}\u0000${id}`;

/**
 * The replica's session actors: one xstate actor per session it serves (session.machine.ts),
 * grouped by tenant. Any replica can serve any session: an actor is rehydrated from the stored
 * descriptor on the session's first request here and lets go after `idleMs` without a turn, or when
 * the replica holds more than `limit` sessions (least recently used first, never one in a turn).
 * Another replica's change to a session marks the copy here stale, and the next request refreshes
 * it from Redis into the same actor, so turns waiting in it keep their order.
 *
 * The actors are independent (not children of a per-tenant machine): xstate copies an actor's
 * whole children map on every spawn, which made one tenant with 10,000 sessions take about 45 s of
 * CPU to open them. Each actor's failure is observed, so it never takes the process down.
 */
export class SessionActors {
  /** Tenant → session id → actor. */
  readonly #tenants = new Map<string, Map<string, SessionActor>>();
  /** Least recently used first; keys are `tenant\u0000id`. */
  readonly #recent = new Set<string>();
  /** Sessions whose copy here is older than Redis's (changed by another replica). */
  readonly #stale = new Set<string>();
  /** The tier each held session was last assembled at (for the tier metric); same keys. */
  readonly #tiers = new Map<string, number>();
  readonly #limit: number;
  readonly #idleMs: number;
  readonly #log: Logger;
  readonly #machine;
  readonly #clock: Clock | undefined;

  constructor(options: {
    limit: number;
    log: Logger;
    effects: SessionEffects;
    idleMs?: number;
    /** xstate's clock for the idle timers (a `SimulatedClock` in tests). */
    clock?: Clock;
  }) {
    this.#limit = options.limit;
    this.#idleMs = options.idleMs ?? DEFAULT_SESSION_IDLE_MS;
    this.#log = options.log;
    this.#clock = options.clock;
    const { effects } = options;
    this.#machine = sessionMachine.provide({
      actions: {
        reassemble: (_, { descriptor }) => effects.reassemble(descriptor),
        persistLatch: (_, { descriptor }) =>
          void effects
            .persistLatch(descriptor)
            .catch((error: Error) =>
              this.#log.warn(
                { err: error.message, tenant: descriptor.tenant, session: descriptor.id },
                'could not store the activation latch',
              ),
            ),
        release: ({ self }, { descriptor }) => this.#remove(descriptor.tenant, descriptor.id, self),
      },
    });
  }

  get size(): number {
    return this.#recent.size;
  }

  /** The actor's descriptor, marked as just used; undefined when not held here or stale. */
  get(tenant: string, id: string): SessionDescriptor | undefined {
    const key = keyOf(tenant, id);
    const actor = this.#tenants.get(tenant)?.get(id);
    if (actor === undefined || this.#stale.has(key)) return undefined;
    this.#touch(key);
    return actor.getSnapshot().context.descriptor;
  }

  /**
   * Rehydrates the session's actor from a stored descriptor, or gives the held actor a newer copy;
   * with `surfaceChanged`, the actor re-assembles the session.
   */
  track(descriptor: SessionDescriptor, options: { surfaceChanged?: boolean } = {}): void {
    const key = keyOf(descriptor.tenant, descriptor.id);
    this.#stale.delete(key);
    this.#touch(key);
    const existing = this.#actor(descriptor.tenant, descriptor.id);
    if (existing !== undefined) {
      existing.send({ type: 'descriptor', descriptor, surfaceChanged: options.surfaceChanged === true });
    } else this.#spawn(descriptor);
    this.#evict();
  }

  /** Runs a turn of the session after the turns before it (rehydrating its actor if needed). */
  turn<T>(descriptor: SessionDescriptor, run: (descriptor: SessionDescriptor) => Promise<T>): Promise<T> {
    if (this.get(descriptor.tenant, descriptor.id) === undefined) this.track(descriptor);
    const actor = this.#actor(descriptor.tenant, descriptor.id) as SessionActor;
    return new Promise<T>((resolve, reject) =>
      actor.send({
        type: 'turn',
        turn: { run, resolve: (value) => resolve(value as T), reject },
      }),
    );
  }

  /** Tells the session's actor what its assembly decided (latch, tier, hash). */
  assembled(tenant: string, id: string, facts: AssembledFacts): void {
    const actor = this.#actor(tenant, id);
    if (actor === undefined) return;
    this.#tiers.set(keyOf(tenant, id), facts.tier);
    // A fan-out re-assembles thousands of sessions: only an assembly that can latch the bridge on
    // is worth an event (xstate's send costs far more than this check, which the machine repeats).
    const { descriptor } = actor.getSnapshot().context;
    if (facts.mode === 'budget' && facts.activated && !descriptor.activated) actor.send({ type: 'assembled', facts });
  }

  /** The session's latched descriptor (after `assembled`), if the actor latched it on. */
  descriptorOf(tenant: string, id: string): SessionDescriptor | undefined {
    return this.#actor(tenant, id)?.getSnapshot().context.descriptor;
  }

  childSpawned(tenant: string, parent: string, child: string): void {
    this.#actor(tenant, parent)?.send({ type: 'child.spawned', id: child });
  }

  /** Closes the session here: a running turn finishes, waiting ones are refused, the actor ends. */
  close(tenant: string, id: string, parent: string | undefined): void {
    this.#actor(tenant, id)?.send({ type: 'close' });
    if (parent !== undefined) this.#actor(tenant, parent)?.send({ type: 'child.closed', id });
  }

  /**
   * Another replica changed or closed the session: an idle actor is dropped, a busy one is marked
   * stale (its next request refreshes it from Redis, and its waiting turns keep their order).
   */
  forget(tenant: string, id: string): void {
    const actor = this.#actor(tenant, id);
    if (actor === undefined) return;
    if (actor.getSnapshot().matches('busy')) this.#stale.add(keyOf(tenant, id));
    else this.#drop(tenant, id);
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
   * Tells the tenant's actors held here that these toolsets changed, one actor per step of the
   * returned iterator (the fan-out scheduler runs it a slice at a time); each actor decides whether
   * its grant holds one of them and re-assembles.
   */
  *toolsetsChanged(tenant: string, toolsetIds: readonly string[]): Generator<void> {
    for (const actor of [...(this.#tenants.get(tenant)?.values() ?? [])]) {
      // Sessions the change cannot reach get no event (the machine's guard is the same check).
      if (grantReaches(actor.getSnapshot().context.descriptor.grant, toolsetIds))
        actor.send({ type: 'toolsets.changed', toolsets: toolsetIds });
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
    this.#stale.clear();
    this.#tiers.clear();
  }

  #actor(tenant: string, id: string): SessionActor | undefined {
    return this.#tenants.get(tenant)?.get(id);
  }

  #touch(key: string): void {
    this.#recent.delete(key);
    this.#recent.add(key);
  }

  #spawn(descriptor: SessionDescriptor): void {
    let sessions = this.#tenants.get(descriptor.tenant);
    if (sessions === undefined) {
      sessions = new Map();
      this.#tenants.set(descriptor.tenant, sessions);
    }
    const actor = createActor(this.#machine, {
      id: descriptor.id,
      input: { descriptor, idleMs: this.#idleMs },
      ...(this.#clock !== undefined ? { clock: this.#clock } : {}),
    });
    actor.subscribe({
      error: (error) =>
        this.#log.error(
          { err: String(error), tenant: descriptor.tenant, session: descriptor.id },
          'session actor failed',
        ),
    });
    sessions.set(descriptor.id, actor);
    actor.start();
  }

  /** Beyond the limit, lets go of the least recently used sessions that are not in a turn. */
  #evict(): void {
    if (this.#recent.size <= this.#limit) return;
    for (const key of this.#recent) {
      if (this.#recent.size <= this.#limit) break;
      const [tenant = '', id = ''] = key.split('\u0000');
      if (this.#actor(tenant, id)?.getSnapshot().matches('busy') === true) continue;
      this.#drop(tenant, id);
    }
  }

  #drop(tenant: string, id: string): void {
    const actor = this.#actor(tenant, id);
    this.#remove(tenant, id, actor);
    actor?.stop();
  }

  /** Removes the session's entries if `actor` is still the one held (a newer actor stays). */
  #remove(tenant: string, id: string, actor: unknown): void {
    const sessions = this.#tenants.get(tenant);
    if (sessions === undefined || sessions.get(id) !== actor) return;
    const key = keyOf(tenant, id);
    sessions.delete(id);
    if (sessions.size === 0) this.#tenants.delete(tenant);
    this.#recent.delete(key);
    this.#stale.delete(key);
    this.#tiers.delete(key);
  }
}
