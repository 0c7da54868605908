/**
 * Refusals of a tenant past its requests per second, answered when its window turns rather than
 * at once. A client that retries as soon as it is refused (a loop, a retry policy without
 * backoff) otherwise spins: one tenant kept four requests in flight and sent 5,000 a second that
 * could only be refused, and parsing them, refusing them and writing the refusals took a third of
 * a core from everyone else. Held, such a client is slowed to its quota's pace.
 *
 * Bounded: a refusal waits at most `maxMs` (250 ms: well inside the one-second default timeout of
 * a NATS request, so a client still hears why), and at most `perTenant` refusals of one tenant and
 * `total` of all tenants are held at once; past either, refusals are answered at once. What the
 * caller holds should be small: the daemon keeps a refusal's reply subject and the answer's bytes
 * (shared by every refusal of a window), never the request. One timer per tenant releases them.
 * A refusal held joins its tenant's batch and leaves with it.
 *
 * This slows clients that wait for their answers (most retry loops); one that sends without
 * waiting, or keeps more than `perTenant` requests in flight, is refused as fast as before, at
 * the small cost of a refusal decided before parsing. The HTTP edge holds its 429s with the same
 * class (the item there is the answer to send).
 */
export class HeldRefusals<M> {
  readonly #held = new Map<string, { items: M[]; timer: NodeJS.Timeout }>();
  readonly #send: (item: M) => void;
  readonly #perTenant: number;
  readonly #total: number;
  readonly #maxMs: number;
  #count = 0;
  #closed = false;

  constructor(options: { send: (item: M) => void; perTenant?: number; total?: number; maxMs?: number }) {
    this.#send = options.send;
    this.#perTenant = options.perTenant ?? 64;
    this.#total = options.total ?? 4096;
    this.#maxMs = options.maxMs ?? 250;
  }

  /**
   * Holds `item` for `ms` (at most `maxMs`; the tenant's first held refusal sets when all of them
   * go), else sends it now.
   */
  hold(tenant: string, item: M, wantedMs: number): void {
    const ms = Math.min(wantedMs, this.#maxMs);
    let entry = this.#held.get(tenant);
    if (this.#closed || ms <= 0 || this.#count >= this.#total || (entry?.items.length ?? 0) >= this.#perTenant) {
      this.#send(item);
      return;
    }
    if (entry === undefined) {
      const timer = setTimeout(() => this.#release(tenant), ms);
      timer.unref();
      this.#held.set(tenant, (entry = { items: [], timer }));
    }
    entry.items.push(item);
    this.#count += 1;
  }

  /** How many refusals are held now. */
  get size(): number {
    return this.#count;
  }

  /**
   * Sends every held refusal now, and every later one at once (the daemon is stopping: requests
   * still in flight may yet be refused, and must not wait for a timer that outlives the connection).
   */
  close(): void {
    this.#closed = true;
    this.flush();
  }

  /** Sends every held refusal now. */
  flush(): void {
    for (const [tenant, { timer }] of this.#held) {
      clearTimeout(timer);
      this.#release(tenant);
    }
  }

  #release(tenant: string): void {
    const entry = this.#held.get(tenant);
    if (entry === undefined) return;
    this.#held.delete(tenant);
    this.#count -= entry.items.length;
    for (const item of entry.items) this.#send(item);
  }
}
