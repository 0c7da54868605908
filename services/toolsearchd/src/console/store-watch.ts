/** How often a tenant with live pages is read. */
const POLL_MS = 1000;

interface Watched {
  readonly listeners: Set<() => void>;
  /** The signature last read; undefined until the first read. */
  last: string | undefined;
  readonly timer: NodeJS.Timeout;
  /** Settles once the first read is in (what the pages were rendered from). */
  primed: Promise<void>;
}

/**
 * Notices changes the daemon publishes no event for, in the store every replica writes: a call
 * being held (only a held call's end is published), and audit records of bridge lookups
 * (`tool_search`, `tool_describe`). While a tenant has live console pages on this replica, `read`
 * gives a short signature of the tenant's state (the held-call ids; the newest audit id) once a
 * second — one Redis read, whatever the number of pages — and every page is told when it changes.
 */
export class StoreWatch {
  readonly #read: (tenant: string) => Promise<string>;
  readonly #tenants = new Map<string, Watched>();

  constructor(read: (tenant: string) => Promise<string>) {
    this.#read = read;
  }

  /**
   * Calls `listener` whenever the tenant's signature changes. Resolves, once the tenant's first
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
    let now: string;
    try {
      now = await this.#read(tenant);
    } catch {
      // Redis away for a moment: the next poll tries again, pages keep what they show.
      return;
    }
    const entry = this.#tenants.get(tenant);
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
