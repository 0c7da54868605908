import { describe, expect, it } from 'vitest';
import { backoffDelay, ReconnectConfigSchema } from './mcp-reconnect';

const schedule = (random: number) =>
  Array.from({ length: 8 }, (_, attempt) => backoffDelay(attempt, { baseMs: 1000, capMs: 30_000 }, () => random));

describe('backoffDelay', () => {
  it('doubles from the base up to the cap when the jitter takes nothing off', () => {
    expect(schedule(1)).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000]);
  });

  it('never waits less than half the schedule when the jitter takes the most off', () => {
    expect(schedule(0)).toEqual([500, 1000, 2000, 4000, 8000, 15_000, 15_000, 15_000]);
  });

  it('stays at the cap for any number of attempts', () => {
    expect(backoffDelay(10_000, { baseMs: 1000, capMs: 30_000 }, () => 1)).toBe(30_000);
  });

  it('keeps a jitter source outside [0, 1] inside the schedule', () => {
    expect(backoffDelay(0, { baseMs: 1000, capMs: 30_000 }, () => 7)).toBe(1000);
    expect(backoffDelay(0, { baseMs: 1000, capMs: 30_000 }, () => -1)).toBe(500);
  });
});

describe('ReconnectConfigSchema', () => {
  it('defaults to base 500 ms and cap 30 s', () => {
    expect(ReconnectConfigSchema.parse(undefined)).toEqual({ baseMs: 500, capMs: 30_000 });
  });

  it('refuses a cap below the base with the key at fault', () => {
    const result = ReconnectConfigSchema.safeParse({ baseMs: 5000, capMs: 1000 });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['capMs']);
  });
});
