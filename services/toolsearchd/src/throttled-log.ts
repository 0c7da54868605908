import type { Logger } from 'pino';
import { redactUrl } from '@toolsearch/client';

/**
 * Warnings of one kind at most once per interval, each with the count of those left out since the
 * last one. A Redis primary that is gone made the approval worker log ~1,700 lines a second; this
 * keeps the first, then one line per interval that says how many more there were.
 */
export class ThrottledLog {
  readonly #log: Logger;
  readonly #intervalMs: number;
  readonly #kinds = new Map<string, { lastAt: number; suppressed: number }>();

  constructor(log: Logger, intervalMs: number) {
    this.#log = log;
    this.#intervalMs = intervalMs;
  }

  /** Logs `message` for `kind` unless one was logged less than an interval ago (then counts it). */
  warn(kind: string, message: string, error: Error, now = Date.now()): void {
    const state = this.#kinds.get(kind);
    if (state !== undefined && now - state.lastAt < this.#intervalMs) {
      state.suppressed++;
      return;
    }
    const suppressed = state?.suppressed ?? 0;
    this.#kinds.set(kind, { lastAt: now, suppressed: 0 });
    this.#log.warn(
      { source: kind, err: redactUrl(error.message), ...(suppressed > 0 ? { suppressed } : {}) },
      suppressed > 0 ? `${message} (${suppressed} more like it since the last report)` : message,
    );
  }
}
