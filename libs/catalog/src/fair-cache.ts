import { RecencyList, type RecencyLinks } from './recency-list';

interface Entry<V> extends RecencyLinks<Entry<V>> {
  readonly key: string;
  readonly value: V;
  readonly owner: Owned<V>;
  readonly weight: number;
}

/** One owner's entries, least recently used first, and the sum of their weights. */
interface Owned<V> {
  readonly name: string;
  readonly entries: RecencyList<Entry<V>>;
  weight: number;
}

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
 *
 * With `keepNewest`, each owner's most recently used entry is never given up to make room (nor is
 * one heavier than `maxWeight` turned away): the owners share the bound beyond one entry each, so
 * owners that each need one large entry (a tenant's catalog) do not take turns evicting each
 * other's, and the cache may exceed its bounds by one entry per owner.
 */
export class FairCache<V> {
  readonly capacity: number;
  readonly maxWeight: number;
  readonly keepNewest: boolean;
  readonly #entries = new Map<string, Entry<V>>();
  readonly #owned = new Map<string, Owned<V>>();
  #weight = 0;

  constructor(capacity: number, options: { maxWeight?: number; keepNewest?: boolean } = {}) {
    this.capacity = Math.max(1, capacity);
    this.maxWeight = Math.max(1, options.maxWeight ?? Number.POSITIVE_INFINITY);
    this.keepNewest = options.keepNewest ?? false;
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
    return this.#owned.get(owner)?.entries.size ?? 0;
  }

  /** The sum of the weights of the entries `owner` holds now. */
  weightHeldBy(owner: string): number {
    return this.#owned.get(owner)?.weight ?? 0;
  }

  /** The cached value for `key` (refreshed as most recently used), or undefined. */
  get(key: string): V | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    entry.owner.entries.touch(entry);
    return entry.value;
  }

  /**
   * Stores `value` for `key` as `owner`'s, weighing `weight` (at least 0), then lets the largest
   * holders give way while over a bound.
   */
  set(key: string, value: V, owner: string, weight = 1): void {
    this.#delete(key);
    const own = Math.max(0, weight);
    if (own > this.maxWeight && !this.keepNewest) return;
    let owned = this.#owned.get(owner);
    if (owned === undefined) {
      owned = { name: owner, entries: new RecencyList(), weight: 0 };
      this.#owned.set(owner, owned);
    }
    const entry: Entry<V> = {
      key,
      value,
      owner: owned,
      weight: own,
      older: undefined,
      newer: undefined,
      listed: false,
    };
    this.#entries.set(key, entry);
    owned.entries.touch(entry);
    owned.weight += own;
    this.#weight += own;
    while (this.#entries.size > this.capacity && this.#evictFromLargest('entries'));
    while (this.#weight > this.maxWeight && this.#evictFromLargest('weight'));
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
    const owned = entry.owner;
    owned.entries.remove(entry);
    owned.weight -= entry.weight;
    if (owned.entries.size === 0) this.#owned.delete(owned.name);
  }

  /**
   * Gives up the least recently used entry of the owner holding the most (entries or weight; with
   * `keepNewest`, counting only what it may give up). False when no owner may give one up.
   */
  #evictFromLargest(by: 'entries' | 'weight'): boolean {
    // One pass over the owners: a cache has a few thousand entries, so at most that many owners.
    let largest: Owned<V> | undefined;
    let most = -1;
    for (const owned of this.#owned.values()) {
      if (this.keepNewest && owned.entries.size < 2) continue;
      const kept = this.keepNewest ? (owned.entries.newest?.weight ?? 0) : 0;
      const held = by === 'entries' ? owned.entries.size : owned.weight - kept;
      if (held > most) {
        most = held;
        largest = owned;
      }
    }
    const oldest = largest?.entries.oldest;
    if (oldest === undefined) return false;
    this.#delete(oldest.key);
    return true;
  }
}
