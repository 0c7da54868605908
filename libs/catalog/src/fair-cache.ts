/**
 * A bounded cache shared by many owners (a daemon's tenants) in which no owner can push another's
 * entries out: when it is full, the owner holding the most gives up its least recently used
 * entry. An owner within its fair share (capacity / owners) therefore keeps every entry however
 * many another creates; an owner creating entries beyond everyone else's only evicts its own. An
 * entry belongs to the owner that created it; a hit by another owner refreshes it all the same
 * (content-addressed entries are shared where their content is).
 *
 * It is bounded in entries (`capacity`) and, when `maxWeight` is given, in the sum of the entries'
 * weights as well (what each costs in memory: the tools of an assembly or a search engine). Over
 * the weight bound, the owner holding the most weight gives way; over the entry bound, the owner
 * holding the most entries. An entry heavier than `maxWeight` on its own is returned to its maker
 * but not kept.
 */
export class FairCache<V> {
  readonly capacity: number;
  readonly maxWeight: number;
  readonly #entries = new Map<string, { value: V; owner: string; weight: number }>();
  /** Per owner: its keys, least recently used first, and the sum of their weights. */
  readonly #owned = new Map<string, { keys: Map<string, true>; weight: number }>();
  #weight = 0;

  constructor(capacity: number, options: { maxWeight?: number } = {}) {
    this.capacity = Math.max(1, capacity);
    this.maxWeight = Math.max(1, options.maxWeight ?? Number.POSITIVE_INFINITY);
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The sum of the weights of the entries held now. */
  get weight(): number {
    return this.#weight;
  }

  /** The entries `owner` holds now. */
  heldBy(owner: string): number {
    return this.#owned.get(owner)?.keys.size ?? 0;
  }

  /** The sum of the weights of the entries `owner` holds now. */
  weightHeldBy(owner: string): number {
    return this.#owned.get(owner)?.weight ?? 0;
  }

  /** The cached value for `key` (refreshed as most recently used), or undefined. */
  get(key: string): V | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    const keys = this.#owned.get(entry.owner)?.keys;
    keys?.delete(key);
    keys?.set(key, true);
    return entry.value;
  }

  /**
   * Stores `value` for `key` as `owner`'s, weighing `weight` (at least 0), then lets the largest
   * holders give way while over a bound.
   */
  set(key: string, value: V, owner: string, weight = 1): void {
    this.#delete(key);
    const own = Math.max(0, weight);
    this.#entries.set(key, { value, owner, weight: own });
    let owned = this.#owned.get(owner);
    if (owned === undefined) {
      owned = { keys: new Map(), weight: 0 };
      this.#owned.set(owner, owned);
    }
    owned.keys.set(key, true);
    owned.weight += own;
    this.#weight += own;
    while (this.#entries.size > this.capacity) this.#evictFromLargest('entries');
    while (this.#weight > this.maxWeight && this.#entries.size > 0) this.#evictFromLargest('weight');
  }

  /** `get`, or `make()` stored as `owner`'s, weighing `weightOf` of it (1 when not given). */
  getOrMake(key: string, owner: string, make: () => V, weightOf?: (value: V) => number): V {
    const cached = this.get(key);
    if (cached !== undefined) return cached;
    const value = make();
    this.set(key, value, owner, weightOf === undefined ? 1 : weightOf(value));
    return value;
  }

  #delete(key: string): void {
    const entry = this.#entries.get(key);
    if (entry === undefined) return;
    this.#entries.delete(key);
    this.#weight -= entry.weight;
    const owned = this.#owned.get(entry.owner);
    if (owned === undefined) return;
    owned.keys.delete(key);
    owned.weight -= entry.weight;
    if (owned.keys.size === 0) this.#owned.delete(entry.owner);
  }

  #evictFromLargest(by: 'entries' | 'weight'): void {
    // One pass over the owners: a cache has a few thousand entries, so at most that many owners.
    let largest: { keys: Map<string, true>; weight: number } | undefined;
    for (const owned of this.#owned.values()) {
      const size = by === 'entries' ? owned.keys.size : owned.weight;
      if (largest === undefined || size > (by === 'entries' ? largest.keys.size : largest.weight)) largest = owned;
    }
    const oldest = largest?.keys.keys().next().value;
    if (oldest !== undefined) this.#delete(oldest);
  }
}
