import type { Logger } from 'pino';
import { createActor, type ActorRefFrom, type SimulatedClock } from 'xstate';

/** xstate's timer source (its `Clock` interface, which the package does not export by name). */
type Clock = Pick<SimulatedClock, 'setTimeout' | 'clearTimeout' | 'now'>;
import { reassemblesOnChange, sessionMachine, type AssembledFacts } from './session.machine';
import { storedBytes, type SessionDescriptor } from './session-store.adapter';
import { RecencyList, type RecencyLinks } from '@toolsearch/search';

type SessionActor = ActorRefFrom<typeof sessionMachine>;

/** How long a session stays in the replica's memory without a request, by default (Redis keeps it). */
export const DEFAULT_SESSION_IDLE_MS = 10 * 60_000;
/** How long a session's actor lives without an event before it parks, by default. */
export const DEFAULT_ACTOR_PARK_MS = 30_000;

/** What the session actors do to the world (provided to every actor's machine). */
export interface SessionEffects {
  /** Re-assemble the session and publish its tier event if its surface changed (may be queued). */
  reassemble(descriptor: SessionDescriptor): void;
  /** Store that the session's `auto:N` bridge latched on, and tell the other replicas. */
  persistLatch(descriptor: SessionDescriptor): Promise<void>;
}

/** A session this replica holds: its actor while it has work, otherwise the parked descriptor. */
interface Held extends RecencyLinks<Held> {
  readonly tenant: string;
  readonly id: string;
  /** The session as the actor left it (read the actor's context instead while it lives). */
  descriptor: SessionDescriptor;
  actor: SessionActor | undefined;
  /** When it was last used, on the actors' clock (for `idleMs`). */
  usedAt: number;
  /** Its size as stored when it was last given to this replica (for `maxBytes`). */
  bytes: number;
}

const keyOf = (tenant: string, id: string) => `${tenant}\u0000${id}`;

/**
 * The replica's session actors: one xstate actor per session with work to do (session.machine.ts),
 * grouped by tenant. Any replica can serve any session: a session is rehydrated from the stored
 * descriptor on its first request here. Its actor runs while the session has events — turns,
 * re-assemblies, its latch, children, close — and parks after `parkMs` without one: the replica
 * keeps the descriptor it left (a few hundred bytes instead of an actor's ~5 KB, so 10,000 idle
 * sessions cost what a cache of them would) and starts a new actor from it on the session's next
 * event. A toolset change does not wake a parked session: the machine's rule for it
 * (`reassemblesOnChange`) is applied to the parked descriptor directly. A session leaves memory
 * after `idleMs` without a request, or when the replica holds more than `limit` sessions (least
 * recently used first, never one in a turn). Another replica's change to a session marks the copy
 * here stale, and the next request refreshes it from Redis into the same actor, so turns waiting
 * in it keep their order.
 *
 * The actors are independent (not children of a per-tenant machine): xstate copies an actor's
 * whole children map on every spawn, which made one tenant with 10,000 sessions take about 45 s of
 * CPU to open them. Each actor's failure is observed, so it never takes the process down.
 */
export class SessionActors {
  /** Tenant → session id → held session. */
  readonly #tenants = new Map<string, Map<string, Held>>();
  /** Every held session, least recently used first. */
  readonly #recent = new RecencyList<Held>();
  /** Sessions whose copy here is older than Redis's (changed by another replica). */
  readonly #stale = new Set<string>();
  /** The tier each held session was last assembled at (for the tier metric); same keys. */
  readonly #tiers = new Map<string, number>();
  readonly #limit: number;
  readonly #maxBytes: number;
  /** The `bytes` of every held session together. */
  #bytes = 0;
  readonly #idleMs: number;
  readonly #parkMs: number;
  readonly #log: Logger;
  readonly #machine;
  readonly #clock: Clock | undefined;
  readonly #now: () => number;
  readonly #effects: SessionEffects;

  constructor(options: {
    limit: number;
    /**
     * Bytes of descriptors (as stored) held at most, all tenants together: a session may bring up
     * to `limits.maxSessionBytes` of settings, so the count alone bounded little.
     */
    maxBytes?: number;
    log: Logger;
    effects: SessionEffects;
    /** How long a session stays in memory without a request. */
    idleMs?: number;
    /** How long an actor lives without an event before it parks (at most `idleMs`). */
    parkMs?: number;
    /** xstate's clock for the actors' timers and the idle time (a `SimulatedClock` in tests). */
    clock?: Clock;
  }) {
    this.#limit = options.limit;
    this.#maxBytes = options.maxBytes ?? Number.POSITIVE_INFINITY;
    this.#idleMs = options.idleMs ?? DEFAULT_SESSION_IDLE_MS;
    this.#parkMs = Math.min(options.parkMs ?? DEFAULT_ACTOR_PARK_MS, this.#idleMs);
    this.#log = options.log;
    this.#clock = options.clock;
    const clock = options.clock;
    this.#now = clock !== undefined ? () => clock.now() : () => Date.now();
    const { effects } = options;
    this.#effects = effects;
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
        release: ({ self }, { descriptor, closed }) =>
          closed ? this.#remove(descriptor.tenant, descriptor.id, self) : this.#park(descriptor, self),
      },
    });
  }

  get size(): number {
    return this.#recent.size;
  }

  /** How many sessions of the tenant this replica holds (running or parked). */
  heldBy(tenant: string): number {
    return this.#tenants.get(tenant)?.size ?? 0;
  }

  /** How many held sessions have a running actor (the rest are parked). */
  get active(): number {
    let count = 0;
    for (const sessions of this.#tenants.values()) for (const held of sessions.values()) if (held.actor) count += 1;
    return count;
  }

  /** The session's descriptor, marked as just used; undefined when not held here or stale. */
  get(tenant: string, id: string): SessionDescriptor | undefined {
    const key = keyOf(tenant, id);
    const held = this.#held(tenant, id);
    if (held === undefined || this.#stale.has(key)) return undefined;
    this.#touch(held);
    return descriptorOf(held);
  }

  /**
   * Holds a stored descriptor (parked until the session has an event), or gives the held session
   * a newer copy; with `surfaceChanged`, the session's actor re-assembles it.
   */
  track(descriptor: SessionDescriptor, options: { surfaceChanged?: boolean } = {}): void {
    const { tenant, id } = descriptor;
    const key = keyOf(tenant, id);
    this.#stale.delete(key);
    this.#expire();
    let held = this.#held(tenant, id);
    const bytes = storedBytes(descriptor);
    if (held === undefined) {
      held = {
        tenant,
        id,
        descriptor,
        actor: undefined,
        usedAt: 0,
        bytes,
        older: undefined,
        newer: undefined,
        listed: false,
      };
      this.#sessions(tenant).set(id, held);
      this.#bytes += bytes;
    } else {
      if (held.actor === undefined) held.descriptor = descriptor;
      this.#bytes += bytes - held.bytes;
      held.bytes = bytes;
    }
    this.#touch(held);
    if (held.actor !== undefined || options.surfaceChanged === true)
      this.#wake(held).send({ type: 'descriptor', descriptor, surfaceChanged: options.surfaceChanged === true });
    this.#evict();
  }

  /** Runs a turn of the session after the turns before it (rehydrating it if needed). */
  turn<T>(descriptor: SessionDescriptor, run: (descriptor: SessionDescriptor) => Promise<T>): Promise<T> {
    if (this.get(descriptor.tenant, descriptor.id) === undefined) this.track(descriptor);
    const actor = this.#wake(this.#held(descriptor.tenant, descriptor.id) as Held);
    return new Promise<T>((resolve, reject) =>
      actor.send({
        type: 'turn',
        turn: { run, resolve: (value) => resolve(value as T), reject },
      }),
    );
  }

  /** Tells the session's actor what its assembly decided (latch, tier, hash). */
  assembled(tenant: string, id: string, facts: AssembledFacts): void {
    const held = this.#held(tenant, id);
    if (held === undefined) return;
    this.#tiers.set(keyOf(tenant, id), facts.tier);
    // A fan-out re-assembles thousands of sessions: only an assembly that can latch the bridge on
    // is worth an event (waking an actor costs far more than this check, which the machine repeats).
    if (facts.mode === 'budget' && facts.activated && !descriptorOf(held).activated)
      this.#wake(held).send({ type: 'assembled', facts });
  }

  /** The session's latched descriptor (after `assembled`), if the actor latched it on. */
  descriptorOf(tenant: string, id: string): SessionDescriptor | undefined {
    const held = this.#held(tenant, id);
    return held === undefined ? undefined : descriptorOf(held);
  }

  childSpawned(tenant: string, parent: string, child: string): void {
    const held = this.#held(tenant, parent);
    if (held !== undefined) this.#wake(held).send({ type: 'child.spawned', id: child });
  }

  /** Closes the session here: a running turn finishes, waiting ones are refused, the actor ends. */
  close(tenant: string, id: string, parent: string | undefined): void {
    const held = this.#held(tenant, id);
    if (held?.actor !== undefined) held.actor.send({ type: 'close' });
    else if (held !== undefined) this.#remove(tenant, id, undefined);
    if (parent === undefined) return;
    const above = this.#held(tenant, parent);
    if (above !== undefined) this.#wake(above).send({ type: 'child.closed', id });
  }

  /**
   * Another replica changed or closed the session: an idle one is dropped, a busy one is marked
   * stale (its next request refreshes it from Redis, and its waiting turns keep their order).
   */
  forget(tenant: string, id: string): void {
    const held = this.#held(tenant, id);
    if (held === undefined) return;
    if (held.actor?.getSnapshot().matches('busy') === true) this.#stale.add(keyOf(tenant, id));
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
   * Tells the tenant's sessions held here that these toolsets changed, one session per step of the
   * returned iterator (the fan-out scheduler runs it a slice at a time). A running actor gets the
   * event and decides; a parked session is judged by the same rule without waking an actor.
   */
  *toolsetsChanged(tenant: string, toolsetIds: readonly string[]): Generator<void> {
    for (const held of [...(this.#tenants.get(tenant)?.values() ?? [])]) {
      const descriptor = descriptorOf(held);
      // Sessions the change cannot reach get no event (the machine's guard is the same rule).
      if (reassemblesOnChange(descriptor, toolsetIds)) {
        if (held.actor !== undefined) held.actor.send({ type: 'toolsets.changed', toolsets: toolsetIds });
        else this.#effects.reassemble(descriptor);
      }
      yield;
    }
  }

  /** Whether this replica holds the session in memory (with a running actor or parked). */
  holds(tenant: string, id: string): boolean {
    this.#expire();
    return this.#held(tenant, id) !== undefined;
  }

  /**
   * The ids among `ids` this replica does not hold, for a pass over the tenant's stored sessions
   * (1,000 ids a batch, every second while a tenant puts): one expiry sweep for the batch, not one
   * per id.
   */
  notHeld(tenant: string, ids: readonly string[]): string[] {
    this.#expire();
    const sessions = this.#tenants.get(tenant);
    return sessions === undefined ? [...ids] : ids.filter((id) => !sessions.has(id));
  }

  /** Whether the session has a running actor here (not parked). */
  running(tenant: string, id: string): boolean {
    return this.#held(tenant, id)?.actor !== undefined;
  }

  stop(): void {
    for (const sessions of this.#tenants.values()) for (const held of sessions.values()) held.actor?.stop();
    this.#tenants.clear();
    this.#recent.clear();
    this.#bytes = 0;
    this.#stale.clear();
    this.#tiers.clear();
  }

  #held(tenant: string, id: string): Held | undefined {
    return this.#tenants.get(tenant)?.get(id);
  }

  #sessions(tenant: string): Map<string, Held> {
    let sessions = this.#tenants.get(tenant);
    if (sessions === undefined) {
      sessions = new Map();
      this.#tenants.set(tenant, sessions);
    }
    return sessions;
  }

  #touch(held: Held): void {
    held.usedAt = this.#now();
    this.#recent.touch(held);
  }

  /** The session's running actor, started from its parked descriptor if it has none. */
  #wake(held: Held): SessionActor {
    if (held.actor !== undefined) return held.actor;
    const { descriptor } = held;
    const actor = createActor(this.#machine, {
      id: descriptor.id,
      input: { descriptor, idleMs: this.#parkMs },
      ...(this.#clock !== undefined ? { clock: this.#clock } : {}),
    });
    actor.subscribe({
      error: (error) =>
        this.#log.error(
          { err: String(error), tenant: descriptor.tenant, session: descriptor.id },
          'session actor failed',
        ),
    });
    held.actor = actor;
    actor.start();
    return actor;
  }

  /** The actor went idle: the session stays, parked with the descriptor the actor left. */
  #park(descriptor: SessionDescriptor, actor: unknown): void {
    const held = this.#held(descriptor.tenant, descriptor.id);
    if (held === undefined || held.actor !== actor) return;
    held.descriptor = descriptor;
    held.actor = undefined;
  }

  /** Lets go of parked sessions unused for `idleMs` (the least recently used come first). */
  #expire(): void {
    const oldest = this.#now() - this.#idleMs;
    for (const held of this.#recent.fromOldest()) {
      if (held.usedAt > oldest) break;
      if (held.actor?.getSnapshot().matches('busy') === true) continue;
      this.#drop(held.tenant, held.id);
    }
  }

  /** Held bytes of descriptors, all sessions together (for tests and metrics). */
  get bytes(): number {
    return this.#bytes;
  }

  /** Beyond the limits, lets go of the least recently used sessions that are not in a turn. */
  #evict(): void {
    const over = () => this.#recent.size > this.#limit || this.#bytes > this.#maxBytes;
    if (!over()) return;
    for (const held of this.#recent.fromOldest()) {
      if (!over()) break;
      if (held.actor?.getSnapshot().matches('busy') === true) continue;
      this.#drop(held.tenant, held.id);
    }
  }

  #drop(tenant: string, id: string): void {
    const actor = this.#held(tenant, id)?.actor;
    this.#remove(tenant, id, actor);
    actor?.stop();
  }

  /** Removes the session's entries if `actor` is still its actor (a newer one stays). */
  #remove(tenant: string, id: string, actor: unknown): void {
    const sessions = this.#tenants.get(tenant);
    const held = sessions?.get(id);
    if (sessions === undefined || held === undefined || held.actor !== actor) return;
    const key = keyOf(tenant, id);
    sessions.delete(id);
    if (sessions.size === 0) this.#tenants.delete(tenant);
    this.#recent.remove(held);
    this.#bytes -= held.bytes;
    this.#stale.delete(key);
    this.#tiers.delete(key);
  }
}

/** The session as it is now: the running actor's copy, or the parked one. */
function descriptorOf(held: Held): SessionDescriptor {
  return held.actor?.getSnapshot().context.descriptor ?? held.descriptor;
}
