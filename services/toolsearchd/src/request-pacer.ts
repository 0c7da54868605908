/**
 * Spreads each tenant's requests over its second instead of letting it spend the whole of its
 * requests per second at once. Counted in one-second windows alone, a tenant whose clients wait
 * for the window to turn (held refusals do exactly that) sent its whole second's budget in the
 * first ~100 ms of every second, and every other tenant's requests queued behind it: in the
 * noisy-neighbour bench tenant B's searches saw the daemon's loop blocked up to 50 ms once a
 * second, with the daemon at a third of a core.
 *
 * Virtual scheduling (the generic cell rate algorithm): a request of weight `w` takes `w / limit`
 * seconds of its tenant's schedule. A tenant may run ahead of its schedule by a burst (a tenth of
 * its limit, at least `minBurst`) at once; past that a request waits for its slot, while other
 * tenants' requests run. A request whose slot is more than `maxWaitMs` away, or one more than
 * `perTenant` / `total` waiting requests, is refused (and the window's refusal rules apply). The
 * one-second windows still decide how much a tenant may do in a second, across replicas; this only
 * decides when, on this replica.
 */
export interface PacerOptions {
  /** Share of a tenant's per-second limit it may spend at once. */
  readonly burstShare: number;
  /** The least burst, in weight units: tenants with small limits are not paced at all. */
  readonly minBurst: number;
  /**
   * The longest a request waits for its slot before it is refused instead: with a burst of a
   * tenth, a tenant may send 60 % of its second at once and have all of it served, within a NATS
   * request's default timeout of one second.
   */
  readonly maxWaitMs: number;
  /**
   * At most this many requests of one tenant wait at once (each keeps its parsed payload), so that
   * one tenant cannot take every place of `total` from the others.
   */
  readonly perTenant: number;
  /** …and of all tenants. */
  readonly total: number;
  /**
   * At most this many payload bytes of one tenant's requests wait at once (a tenant's first waiting
   * request is let wait whatever its size, so one within `limits.maxPayloadBytes` is never refused
   * for its size alone)…
   */
  readonly perTenantBytes: number;
  /** …and of all tenants' (past this, only requests that need not wait run). */
  readonly totalBytes: number;
}

export const PACER_DEFAULTS: PacerOptions = {
  burstShare: 0.1,
  minBurst: 50,
  maxWaitMs: 500,
  perTenant: 128,
  total: 2048,
  perTenantBytes: 16 * 1024 * 1024,
  totalBytes: 128 * 1024 * 1024,
};

/** Why a request could not be given a slot: its tenant is too far ahead, or too many wait (its own, or all). */
export type PaceRefusal = 'too-far-behind' | 'too-many-waiting' | 'daemon-busy';

export class RequestPacer {
  readonly #options: PacerOptions;
  /** Per tenant: when its schedule is paid off (ms on the monotonic clock). */
  readonly #paidUntil = new Map<string, number>();
  /** Per tenant: how many of its requests wait, and their payload bytes. */
  readonly #waiting = new Map<string, { count: number; bytes: number }>();
  #waitingTotal = 0;
  #waitingBytes = 0;
  #prunedAt = -Infinity;
  readonly #wakers = new Set<() => void>();
  #closed = false;

  constructor(options: Partial<PacerOptions> = {}) {
    this.#options = { ...PACER_DEFAULTS, ...options };
  }

  /** The burst of a tenant with this limit, in weight units. */
  burst(limit: number): number {
    return Math.min(limit, Math.max(Math.ceil(limit * this.#options.burstShare), this.#options.minBurst));
  }

  /**
   * How long a request of `weight` must wait for its slot (0: now), or why it gets none: it may
   * start once the tenant's schedule, with it booked, is at most the burst ahead. A tenant that is
   * not behind at all runs a request at once whatever its weight. Changes nothing: `take` books
   * the slot once the request is admitted.
   */
  delay(tenant: string, limit: number, weight: number, now: number, bytes = 0): number | PaceRefusal {
    const paidUntil = this.#paidUntil.get(tenant) ?? now;
    if (paidUntil <= now) return 0;
    const ahead = paidUntil + (Math.min(weight, limit) * 1000) / limit - now - (this.burst(limit) * 1000) / limit;
    if (ahead <= 0) return 0;
    if (ahead > this.#options.maxWaitMs) return 'too-far-behind';
    const own = this.#waiting.get(tenant);
    if (own !== undefined) {
      if (own.count >= this.#options.perTenant) return 'too-many-waiting';
      if (own.bytes + bytes > this.#options.perTenantBytes) return 'too-many-waiting';
    }
    if (this.#waitingTotal >= this.#options.total) return 'daemon-busy';
    if (this.#waitingBytes > 0 && this.#waitingBytes + bytes > this.#options.totalBytes) return 'daemon-busy';
    return ahead;
  }

  /**
   * Books `weight` on the tenant's schedule (an admitted request, or work charged after the fact),
   * at most a second's worth (`limit`), as `delay` counts it.
   */
  take(tenant: string, limit: number, weight: number, now: number): void {
    const from = Math.max(this.#paidUntil.get(tenant) ?? now, now);
    this.#paidUntil.set(tenant, from + (Math.min(weight, limit) * 1000) / limit);
    // A schedule paid off says nothing: past a few thousand tenants, drop those (at most once a second).
    if (this.#paidUntil.size > 4096 && now - this.#prunedAt > 1000) {
      this.#prunedAt = now;
      for (const [id, until] of this.#paidUntil) if (until < now) this.#paidUntil.delete(id);
    }
  }

  /**
   * Waits `ms` for a request of the tenant (holding `bytes` of payload), counted among the waiting
   * while it does. Resolves at once when the pacer is closed (the daemon is stopping): check
   * `closed` afterwards.
   */
  async wait(tenant: string, ms: number, bytes = 0): Promise<void> {
    if (this.#closed) return;
    const own = this.#waiting.get(tenant) ?? { count: 0, bytes: 0 };
    own.count += 1;
    own.bytes += bytes;
    this.#waiting.set(tenant, own);
    this.#waitingTotal += 1;
    this.#waitingBytes += bytes;
    let wake: (() => void) | undefined;
    try {
      await new Promise<void>((done) => {
        const timer = setTimeout(() => wake?.(), ms);
        wake = () => {
          clearTimeout(timer);
          this.#wakers.delete(wake as () => void);
          done();
        };
        this.#wakers.add(wake);
      });
    } finally {
      own.count -= 1;
      own.bytes -= bytes;
      if (own.count === 0) this.#waiting.delete(tenant);
      this.#waitingTotal -= 1;
      this.#waitingBytes -= bytes;
    }
  }

  /** Wakes every waiting request and waits no more (the daemon is stopping). */
  close(): void {
    this.#closed = true;
    for (const wake of [...this.#wakers]) wake();
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** How many requests wait for their slots now. */
  get waiting(): number {
    return this.#waitingTotal;
  }
}
