import type { Logger } from 'pino';
import type { SessionDescriptor } from './session-store.adapter';

/** How many steps of a walk run between two looks at the clock. */
const WALK_STEPS_PER_CHECK = 64;

/**
 * Runs the re-assemblies a toolset change causes without letting one tenant hold the process:
 * work is queued per tenant (one entry per session, the newest descriptor wins), taken round-robin
 * across tenants, and run in slices of a few milliseconds with a yield to the event loop between
 * slices, so requests of every tenant keep being answered while a tenant with 20,000 sessions is
 * re-tiered. At most `maxInFlight` re-assemblies wait on Redis at once.
 *
 * Telling a tenant's sessions about a change is itself sliced: a walk (one per tenant, a newer
 * one replacing the older) is an iterator whose every step tells one session, advanced inside the
 * same slices. Telling 20,000 sessions in one go held the event loop 0.5–1 s per toolset put.
 * A walk runs only a little ahead of its tenant's re-assemblies (`walkAhead` queued): it advances
 * at the pace of the tenant's budget, so the sessions it has told are re-assembled before it
 * tells more, and a tenant whose walk is running pays one step per re-assembly. Walks that ran
 * ahead queued all 20,000 sessions at once and were walked again every second while the budget
 * drained the queue in ten, re-queueing sessions already queued.
 */
export class FanoutScheduler {
  /** Tenant → session id → the descriptor to re-assemble; tenants in the order they are served. */
  readonly #queues = new Map<string, Map<string, SessionDescriptor>>();
  /** Tenant → its walk in progress and what to call once it has run to its end. */
  readonly #walks = new Map<string, { steps: Iterator<unknown>; done: () => void }>();
  /** Tenant → sessions its walk queued that have not started yet (what `walkAhead` counts). */
  readonly #walkQueued = new Map<string, Set<string>>();
  /** The tenant whose walk is taking a step (its enqueues are the walk's). */
  #walking: string | undefined;
  /** Ends the pump's wait for a budget window (new work may be able to start). */
  #wake: (() => void) | undefined;
  readonly #inFlight = new Set<Promise<void>>();
  readonly #run: (descriptor: SessionDescriptor) => Promise<void>;
  readonly #log: Logger;
  readonly #sliceMs: number;
  readonly #maxInFlight: number;
  readonly #share: number;
  readonly #maxLoopUtilization: number;
  #loop = performance.eventLoopUtilization();
  readonly #perTenantPerSecond: number;
  readonly #walkAhead: number;
  /** Re-assemblies started per tenant in the budget window that began at `#budgetWindow`. */
  readonly #started = new Map<string, number>();
  #budgetWindow = 0;
  #active = false;
  #done: Promise<void> = Promise.resolve();
  #stopped = false;

  constructor(options: {
    run: (descriptor: SessionDescriptor) => Promise<void>;
    log: Logger;
    /** How long one slice of work may hold the event loop. */
    sliceMs?: number;
    /** Re-assemblies waiting on their stores at once. */
    maxInFlight?: number;
    /**
     * The share of the event loop slices may take while work is queued: after a slice of d ms
     * the next starts no sooner than d × (1 / share − 1) ms later. Yielding alone let a tenant
     * putting toolsets without pause keep fan-outs running back to back, and the garbage of its
     * 20,000 re-assemblies a second paused everyone's requests in the collector.
     */
    share?: number;
    /**
     * Above this event-loop utilisation (measured since the previous slice, the replies of the
     * re-assemblies' Redis swaps and their tier events included) the next slice waits 10 ms:
     * the slices' own share does not count the work their re-assemblies cause after them.
     */
    maxLoopUtilization?: number;
    /**
     * Re-assemblies one tenant may start per second. Each costs its Redis swap and tier event
     * after its slice as well; unbudgeted, a tenant with 20,000 sessions putting toolsets
     * without pause kept the daemon busy re-tiering them and others' requests waited.
     */
    perTenantPerSecond?: number;
    /** How many of its re-assemblies a tenant may have queued before its walk pauses. */
    walkAhead?: number;
  }) {
    this.#run = options.run;
    this.#log = options.log;
    this.#share = Math.min(1, Math.max(0.05, options.share ?? 0.5));
    this.#maxLoopUtilization = options.maxLoopUtilization ?? 0.6;
    this.#perTenantPerSecond = options.perTenantPerSecond ?? 2000;
    this.#sliceMs = options.sliceMs ?? 4;
    this.#maxInFlight = options.maxInFlight ?? 32;
    this.#walkAhead = Math.max(1, options.walkAhead ?? 64);
  }

  /** Re-assemblies one tenant may start per second. */
  get perTenantPerSecond(): number {
    return this.#perTenantPerSecond;
  }

  /** Sessions waiting to be re-assembled, every tenant together. */
  get pending(): number {
    let count = 0;
    for (const queue of this.#queues.values()) count += queue.size;
    return count;
  }

  /** Queues one session's re-assembly (replacing a queued one of the same session). */
  enqueue(descriptor: SessionDescriptor): void {
    if (this.#stopped) return;
    let queue = this.#queues.get(descriptor.tenant);
    if (queue === undefined) this.#queues.set(descriptor.tenant, (queue = new Map()));
    queue.set(descriptor.id, descriptor);
    if (this.#walking === descriptor.tenant) {
      let queued = this.#walkQueued.get(descriptor.tenant);
      if (queued === undefined) this.#walkQueued.set(descriptor.tenant, (queued = new Set()));
      queued.add(descriptor.id);
    }
    this.#start();
  }

  #start(): void {
    if (this.#active) {
      this.#wake?.();
      return;
    }
    this.#active = true;
    // Starts on the next turn of the event loop: a burst of changes is queued (and deduplicated) first.
    this.#done = new Promise((resolve) => setImmediate(resolve)).then(() => this.#pump());
  }

  /**
   * Advances the walks, tenants taking turns, until `deadline`, until every walk has ended or
   * waits for the re-assemblies it queued to drain below `walkAhead`; returns how many steps were
   * taken. Only the walk's own entries count: a pass over the store may have queued thousands of
   * the tenant's other sessions, and the walk must not wait for all of them.
   */
  #advanceWalks(deadline: number): number {
    let taken = 0;
    for (const [tenant, walk] of this.#walks) {
      if (performance.now() >= deadline) break;
      if (this.#walkAheadOf(tenant) >= this.#walkAhead) continue;
      // The tenant goes to the back of the line while its walk runs.
      this.#walks.delete(tenant);
      let finished = false;
      this.#walking = tenant;
      try {
        for (let step = 0; ; step++) {
          if (step > 0 && step % WALK_STEPS_PER_CHECK === 0 && performance.now() >= deadline) break;
          if (this.#walkAheadOf(tenant) >= this.#walkAhead) break;
          if (walk.steps.next().done === true) {
            finished = true;
            break;
          }
          taken += 1;
        }
      } finally {
        this.#walking = undefined;
      }
      if (!finished) this.#walks.set(tenant, walk);
      // A walk started meanwhile by one of its steps replaced it; only its own end is reported.
      else if (!this.#walks.has(tenant)) walk.done();
    }
    return taken;
  }

  #walkAheadOf(tenant: string): number {
    return this.#walkQueued.get(tenant)?.size ?? 0;
  }

  /**
   * Runs `steps` to its end a slice at a time, then calls `done`. A walk of the same tenant still
   * in progress is dropped (its `done` is not called): the newer walk covers it.
   */
  walk(tenant: string, steps: Iterator<unknown>, done: () => void = () => undefined): void {
    if (this.#stopped) return;
    this.#walks.delete(tenant);
    this.#walks.set(tenant, { steps, done });
    this.#start();
  }

  /** Resolves when everything queued so far has run. */
  async idle(): Promise<void> {
    while (this.#active) await this.#done;
  }

  stop(): void {
    this.#stopped = true;
    this.#queues.clear();
    this.#walks.clear();
    this.#walkQueued.clear();
    this.#wake?.();
  }

  /** Whether the tenant may start another re-assembly in this second. */
  #withinBudget(tenant: string): boolean {
    const now = performance.now();
    if (now - this.#budgetWindow >= 1000) {
      this.#budgetWindow = now;
      this.#started.clear();
    }
    return (this.#started.get(tenant) ?? 0) < this.#perTenantPerSecond;
  }

  /** The next session, one tenant after another, skipping tenants past their budget. */
  #next(): SessionDescriptor | undefined {
    for (const [tenant, queue] of this.#queues) {
      if (!this.#withinBudget(tenant)) continue;
      this.#started.set(tenant, (this.#started.get(tenant) ?? 0) + 1);
      this.#queues.delete(tenant);
      // Sessions its walk queued (held here: clients are listening) before ones a store pass queued.
      const queued = this.#walkQueued.get(tenant);
      const id = queued?.values().next().value ?? queue.keys().next().value;
      const descriptor = id === undefined ? undefined : queue.get(id);
      if (id === undefined || descriptor === undefined) continue;
      queue.delete(id);
      if (queued !== undefined && queued.delete(id) && queued.size === 0) this.#walkQueued.delete(tenant);
      // The tenant goes to the back of the line (if it has more work).
      if (queue.size > 0) this.#queues.set(tenant, queue);
      return descriptor;
    }
    return undefined;
  }

  async #pump(): Promise<void> {
    try {
      while (!this.#stopped) {
        if (this.pending === 0 && this.#walks.size === 0) {
          // Nothing left to start: done once the last re-assemblies have finished.
          if (this.#inFlight.size === 0) return;
          await Promise.race(this.#inFlight);
          continue;
        }
        const started = performance.now();
        const sliceEnds = started + this.#sliceMs;
        // Walks get up to half a slice while re-assemblies are waiting, the whole slice otherwise.
        const walked = this.#advanceWalks(this.pending > 0 ? started + this.#sliceMs / 2 : sliceEnds);
        let ran = 0;
        while (performance.now() < sliceEnds && this.#inFlight.size < this.#maxInFlight) {
          const descriptor = this.#next();
          if (descriptor === undefined) break;
          ran += 1;
          // The synchronous part of a re-assembly (building the surface) runs here, inside the slice.
          const running = this.#run(descriptor).catch((error: Error) =>
            this.#log.warn(
              { err: error.message, tenant: descriptor.tenant, session: descriptor.id },
              're-assembly failed',
            ),
          );
          this.#inFlight.add(running);
          void running.finally(() => this.#inFlight.delete(running));
        }
        const busy = performance.now() - started;
        if (ran === 0 && walked === 0 && this.pending > 0) {
          // Nothing could start (all in flight, or every waiting tenant past its budget, its walk
          // waiting for its queue): wait for a re-assembly to finish, else for the budget window —
          // or for new work (another tenant's change must not wait for this tenant's window).
          const woken = new Promise<void>((resolve) => (this.#wake = resolve));
          let timer: NodeJS.Timeout | undefined;
          await Promise.race([
            woken,
            this.#inFlight.size > 0
              ? Promise.race(this.#inFlight)
              : new Promise((resolve) => {
                  timer = setTimeout(resolve, Math.max(1, this.#budgetWindow + 1000 - performance.now()));
                }),
          ]);
          clearTimeout(timer);
          this.#wake = undefined;
          continue;
        }
        if (this.#inFlight.size >= this.#maxInFlight) await Promise.race(this.#inFlight);
        // Let requests of every tenant in before the next slice, and leave them their share.
        let rest = busy * (1 / this.#share - 1);
        const now = performance.eventLoopUtilization();
        if (performance.eventLoopUtilization(now, this.#loop).utilization > this.#maxLoopUtilization)
          rest = Math.max(rest, 10);
        this.#loop = now;
        await new Promise((resolve) => (rest >= 1 ? setTimeout(resolve, rest) : setImmediate(resolve)));
      }
    } finally {
      // Runs as the loop ends, in the same tick: an enqueue after this starts a new pump.
      this.#active = false;
    }
  }
}
