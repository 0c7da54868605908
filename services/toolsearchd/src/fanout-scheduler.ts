import type { Logger } from 'pino';
import type { SessionDescriptor } from './session-store.adapter';

/**
 * Runs the re-assemblies a toolset change causes without letting one tenant hold the process:
 * work is queued per tenant (one entry per session, the newest descriptor wins), taken round-robin
 * across tenants, and run in slices of a few milliseconds with a yield to the event loop between
 * slices, so requests of every tenant keep being answered while a tenant with 20,000 sessions is
 * re-tiered. At most `maxInFlight` re-assemblies wait on Redis at once.
 */
export class FanoutScheduler {
  /** Tenant → session id → the descriptor to re-assemble; tenants in the order they are served. */
  readonly #queues = new Map<string, Map<string, SessionDescriptor>>();
  readonly #inFlight = new Set<Promise<void>>();
  readonly #run: (descriptor: SessionDescriptor) => Promise<void>;
  readonly #log: Logger;
  readonly #sliceMs: number;
  readonly #maxInFlight: number;
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
  }) {
    this.#run = options.run;
    this.#log = options.log;
    this.#sliceMs = options.sliceMs ?? 4;
    this.#maxInFlight = options.maxInFlight ?? 32;
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
    if (!this.#active) {
      this.#active = true;
      // Starts on the next turn of the event loop: a burst of changes is queued (and deduplicated) first.
      this.#done = new Promise((resolve) => setImmediate(resolve)).then(() => this.#pump());
    }
  }

  /** Resolves when everything queued so far has run. */
  async idle(): Promise<void> {
    while (this.#active) await this.#done;
  }

  stop(): void {
    this.#stopped = true;
    this.#queues.clear();
  }

  /** The next session, one tenant after another. */
  #next(): SessionDescriptor | undefined {
    for (const [tenant, queue] of this.#queues) {
      const first = queue.entries().next();
      this.#queues.delete(tenant);
      if (first.done === true) continue;
      const [id, descriptor] = first.value;
      queue.delete(id);
      // The tenant goes to the back of the line (if it has more work).
      if (queue.size > 0) this.#queues.set(tenant, queue);
      return descriptor;
    }
    return undefined;
  }

  async #pump(): Promise<void> {
    try {
      while (!this.#stopped) {
        if (this.pending === 0) {
          // Nothing left to start: done once the last re-assemblies have finished.
          if (this.#inFlight.size === 0) return;
          await Promise.race(this.#inFlight);
          continue;
        }
        const sliceEnds = performance.now() + this.#sliceMs;
        while (performance.now() < sliceEnds && this.#inFlight.size < this.#maxInFlight) {
          const descriptor = this.#next();
          if (descriptor === undefined) break;
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
        if (this.#inFlight.size >= this.#maxInFlight) await Promise.race(this.#inFlight);
        // Let requests of every tenant in before the next slice.
        await new Promise((resolve) => setImmediate(resolve));
      }
    } finally {
      // Runs as the loop ends, in the same tick: an enqueue after this starts a new pump.
      this.#active = false;
    }
  }
}
