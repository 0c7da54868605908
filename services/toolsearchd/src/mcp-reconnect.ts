import { z } from 'zod';

/** `mcp.reconnect`: how often the daemon tries again to reach an MCP server that went away. */
export const ReconnectConfigSchema = z
  .object({
    /** The first retry comes after between half of this and this (then doubling). */
    baseMs: z.number().int().min(10).max(600_000).default(500),
    /** No retry waits longer than this (the doubling stops here). */
    capMs: z.number().int().min(10).max(3_600_000).default(30_000),
  })
  .strict()
  .refine((value) => value.capMs >= value.baseMs, { message: 'capMs must be at least baseMs', path: ['capMs'] })
  .prefault({});
export type ReconnectConfig = z.output<typeof ReconnectConfigSchema>;

/**
 * The wait before retry number `attempt` (0 for the first): `min(cap, base·2^attempt)`, of which a
 * random half is taken off ("equal jitter"), so the replicas that lost the same server do not all
 * come back in the same millisecond, and a retry still never comes sooner than half the schedule.
 * Over a minute with base 1 s and cap 30 s that is at most 7 attempts, at least 5.
 */
export function backoffDelay(attempt: number, config: ReconnectConfig, random: () => number = Math.random): number {
  const ceiling = Math.min(config.capMs, config.baseMs * 2 ** Math.min(attempt, 30));
  return Math.round(ceiling / 2 + (ceiling / 2) * Math.min(Math.max(random(), 0), 1));
}

/** Timers the pool schedules its retries on (the real ones in the daemon, a simulated clock in tests). */
export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** Node's timers, unref'd: a pending retry never keeps the process alive. */
export const realTimers: Timers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms).unref(),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};
