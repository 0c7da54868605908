/** How often the held calls of a tenant with live pages are read. */
const POLL_MS = 1000;

interface Watched {
  readonly listeners: Set<() => void>;
  /** The ids last read; undefined until the first read. */
  last: string | undefined;
  readonly timer: NodeJS.Timeout;
  /** Settles once the first read is in (what the pages were rendered from). */
  primed: Promise<void>;
}

/**
 * Notices new held calls. The dispatcher publishes no event when it holds a call (only when a
 * held call finishes), and the hold may happen on any replica, so the store is the one place
 * that knows: while a tenant has live console pages on this replica, its held-call ids are read
 * once a second (one `ZRANGE`, whatever the number of pages) and every page is told when they
 * change. Finished calls also arrive at once through the result events.
 */
export class HeldWatch {
  readonly #read: (tenant: string) => Promise<string[]>;
  readonly #tenants = new Map<string, Watched>();

  constructor(read: (tenant: string) => Promise<string[]>) {
    this.#read = read;
  }

  /**
   * Calls `listener` whenever the tenant's held calls change. Resolves, once the tenant's first
   * read is in, with the function that stops it.
   */
  async watch(tenant: string, listener: () => void): Promise<() => void> {
    let entry = this.#tenants.get(tenant);
    if (entry === undefined) {
      const timer = setInterval(() => void this.#poll(tenant), POLL_MS);
      const created: Watched = { listeners: new Set(), last: undefined, timer, primed: Promise.resolve() };
      this.#tenants.set(tenant, created);
      entry = Object.assign(created, { primed: this.#poll(tenant) });
    }
    entry.listeners.add(listener);
    await entry.primed;
    return () => {
      const current = this.#tenants.get(tenant);
      if (current === undefined) return;
      current.listeners.delete(listener);
      if (current.listeners.size > 0) return;
      clearInterval(current.timer);
      this.#tenants.delete(tenant);
    };
  }

  async #poll(tenant: string): Promise<void> {
    let ids: string[];
    try {
      ids = await this.#read(tenant);
    } catch {
      // Redis away for a moment: the next poll tries again, pages keep what they show.
      return;
    }
    const entry = this.#tenants.get(tenant);
    const now = ids.join(',');
    if (entry === undefined || now === entry.last) return;
    const first = entry.last === undefined;
    entry.last = now;
    // The first read is what the pages were rendered from; only later changes are news.
    if (!first) for (const listener of entry.listeners) listener();
  }

  close(): void {
    for (const entry of this.#tenants.values()) clearInterval(entry.timer);
    this.#tenants.clear();
  }
}
