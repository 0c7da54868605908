/**
 * A bounded cache shared by many owners (a daemon's tenants) in which no owner can push another's
 * entries out: when it is full, the owner holding the most entries gives up its least recently
 * used one. An owner within its fair share (capacity / owners) therefore keeps every entry
 * however many another creates; an owner creating entries beyond everyone else's only evicts its
 * own. An entry belongs to the owner that created it; a hit by another owner refreshes it all the
 * same (content-addressed entries are shared where their content is).
 */
export class FairCache<V> {
  readonly capacity: number;
  readonly #entries = new Map<string, { value: V; owner: string }>();
  /** Per owner: its keys, least recently used first. */
  readonly #owned = new Map<string, Map<string, true>>();

  constructor(capacity: number) {
    this.capacity = Math.max(1, capacity);
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The entries `owner` holds now. */
  heldBy(owner: string): number {
    return this.#owned.get(owner)?.size ?? 0;
  }

  /** The cached value for `key` (refreshed as most recently used), or undefined. */
  get(key: string): V | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    const keys = this.#owned.get(entry.owner);
    keys?.delete(key);
    keys?.set(key, true);
    return entry.value;
  }

  /** Stores `value` for `key` as `owner`'s, then lets the largest holder give way while over capacity. */
  set(key: string, value: V, owner: string): void {
    const previous = this.#entries.get(key);
    if (previous !== undefined) {
      const keys = this.#owned.get(previous.owner);
      keys?.delete(key);
      if (keys?.size === 0) this.#owned.delete(previous.owner);
    }
    this.#entries.set(key, { value, owner });
    let keys = this.#owned.get(owner);
    if (keys === undefined) {
      keys = new Map();
      this.#owned.set(owner, keys);
    }
    keys.set(key, true);
    while (this.#entries.size > this.capacity) this.#evictFromLargest();
  }

  /** `get`, or `make()` stored as `owner`'s. */
  getOrMake(key: string, owner: string, make: () => V): V {
    const cached = this.get(key);
    if (cached !== undefined) return cached;
    const value = make();
    this.set(key, value, owner);
    return value;
  }

  #evictFromLargest(): void {
    // One pass over the owners: a cache has a few thousand entries, so at most that many owners.
    let largest: Map<string, true> | undefined;
    let largestOwner = '';
    for (const [owner, keys] of this.#owned)
      if (largest === undefined || keys.size > largest.size) {
        largest = keys;
        largestOwner = owner;
      }
    const oldest = largest?.keys().next().value;
    if (largest === undefined || oldest === undefined) return;
    largest.delete(oldest);
    if (largest.size === 0) this.#owned.delete(largestOwner);
    this.#entries.delete(oldest);
  }
}
