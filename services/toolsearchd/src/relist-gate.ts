import { realTimers, type Timers } from './mcp-reconnect';

/** The least time between two re-lists of one MCP server's tools. */
export const MIN_RELIST_INTERVAL_MS = 1_000;

/**
 * Follows one MCP server's `tools/list_changed` notifications: at most one re-list runs at a time,
 * at most one starts per `minIntervalMs`, and any number of notifications meanwhile make one more
 * re-list, not one each. A re-list reads every page of the server's tools, vets them, stores them
 * and re-assembles the tenant's sessions: followed one by one, a server announcing changes in a
 * loop had the daemon do that without pause.
 */
export class RelistGate {
  readonly #relist: () => Promise<void>;
  readonly #timers: Timers;
  readonly #now: () => number;
  readonly #minIntervalMs: number;
  #running = false;
  /** A notification came while a re-list ran: one more is due once it ends. */
  #again = false;
  #timer: unknown;
  #lastStart = Number.NEGATIVE_INFINITY;
  #stopped = false;

  constructor(
    relist: () => Promise<void>,
    options: { timers?: Timers; now?: () => number; minIntervalMs?: number } = {},
  ) {
    this.#relist = relist;
    this.#timers = options.timers ?? realTimers;
    this.#now = options.now ?? Date.now;
    this.#minIntervalMs = options.minIntervalMs ?? MIN_RELIST_INTERVAL_MS;
  }

  /** The server said its tools changed. */
  notify(): void {
    if (this.#stopped) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    if (this.#timer !== undefined) return;
    const wait = Math.max(0, this.#lastStart + this.#minIntervalMs - this.#now());
    this.#timer = this.#timers.setTimeout(() => {
      this.#timer = undefined;
      void this.#run();
    }, wait);
  }

  /** The connection ended: nothing more runs. */
  stop(): void {
    this.#stopped = true;
    if (this.#timer !== undefined) this.#timers.clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  async #run(): Promise<void> {
    if (this.#stopped) return;
    this.#running = true;
    this.#again = false;
    this.#lastStart = this.#now();
    try {
      await this.#relist();
    } finally {
      this.#running = false;
      if (this.#again) {
        this.#again = false;
        this.notify();
      }
    }
  }
}
