/** What an entry of a `RecencyList` carries: its two links, kept by the list. */
export interface RecencyLinks<T> {
  older: T | undefined;
  newer: T | undefined;
  /** Whether the entry is in a list (an entry is in at most one). */
  listed: boolean;
}

/**
 * Entries from least to most recently used, as a doubly linked list through the entries
 * themselves: moving an entry to the recent end is a few pointer writes. Used by the search
 * library (usage boosts), the shared caches (`FairCache`) and the daemon (its held sessions, the
 * sessions' last searches).
 *
 * Why not a `Set` with `delete` then `add`: V8 leaves a deleted entry in its hash bucket until the
 * table is rebuilt, and the re-added key joins the same bucket, so a key moved over and over makes
 * its own bucket longer with every move. In a Set of 20,000 sessions, one session searched 500
 * times a second cost 10 µs per move at first and 70 µs after 50,000 moves (Node 20).
 */
export class RecencyList<T extends RecencyLinks<T>> {
  #oldest: T | undefined;
  #newest: T | undefined;
  #size = 0;

  get size(): number {
    return this.#size;
  }

  /** The least recently used entry. */
  get oldest(): T | undefined {
    return this.#oldest;
  }

  /** The most recently used entry. */
  get newest(): T | undefined {
    return this.#newest;
  }

  /** Makes `entry` the most recently used (adding it if it is not in the list). */
  touch(entry: T): void {
    if (entry.listed) {
      if (this.#newest === entry) return;
      this.#unlink(entry);
    }
    entry.older = this.#newest;
    entry.newer = undefined;
    if (this.#newest !== undefined) this.#newest.newer = entry;
    else this.#oldest = entry;
    this.#newest = entry;
    entry.listed = true;
    this.#size += 1;
  }

  remove(entry: T): void {
    if (entry.listed) this.#unlink(entry);
  }

  /** From the least recently used on; the entry just yielded may be removed meanwhile. */
  *fromOldest(): Generator<T> {
    for (let entry = this.#oldest; entry !== undefined; ) {
      const next = entry.newer;
      yield entry;
      entry = next;
    }
  }

  clear(): void {
    for (let entry = this.#oldest; entry !== undefined; ) {
      const next: T | undefined = entry.newer;
      entry.older = entry.newer = undefined;
      entry.listed = false;
      entry = next;
    }
    this.#oldest = this.#newest = undefined;
    this.#size = 0;
  }

  #unlink(entry: T): void {
    if (entry.older !== undefined) entry.older.newer = entry.newer;
    else this.#oldest = entry.newer;
    if (entry.newer !== undefined) entry.newer.older = entry.older;
    else this.#newest = entry.older;
    entry.older = entry.newer = undefined;
    entry.listed = false;
    this.#size -= 1;
  }
}
