import { describe, expect, it } from 'vitest';
import type { Timers } from './mcp-reconnect';
import { RelistGate } from './relist-gate';

/** Timers on a clock the test moves. */
function fakeClock() {
  let now = 0;
  let next = 0;
  const pending = new Map<number, { at: number; run: () => void }>();
  const timers: Timers = {
    setTimeout: (run, ms) => {
      next += 1;
      pending.set(next, { at: now + ms, run });
      return next;
    },
    clearTimeout: (handle) => pending.delete(handle as number),
  };
  const advance = async (ms: number) => {
    const until = now + ms;
    // Whatever finished just before (a re-list's promise) schedules its timers first.
    await new Promise((done) => setImmediate(done));
    for (;;) {
      const due = [...pending].filter(([, timer]) => timer.at <= until).sort((a, b) => a[1].at - b[1].at)[0];
      if (due === undefined) break;
      pending.delete(due[0]);
      now = due[1].at;
      due[1].run();
      await new Promise((done) => setImmediate(done));
    }
    now = until;
  };
  return { timers, now: () => now, advance };
}

/** A gate on a fake clock whose re-list only counts its runs. */
function countingGate() {
  const clock = fakeClock();
  let runs = 0;
  const gate = new RelistGate(async () => void (runs += 1), { timers: clock.timers, now: clock.now });
  return { clock, gate, relists: () => runs };
}

describe('RelistGate', () => {
  it('turns a storm of notifications into at most one re-list a second', async () => {
    const { clock, gate, relists } = countingGate();
    gate.notify();
    await clock.advance(0);
    expect(relists()).toBe(1);
    // A server announcing a change every millisecond for five seconds.
    for (let ms = 0; ms < 5_000; ms += 1) {
      gate.notify();
      await clock.advance(1);
    }
    await clock.advance(2_000);
    expect(relists()).toBeGreaterThanOrEqual(5);
    expect(relists()).toBeLessThanOrEqual(7);
  });

  it('runs one more re-list for notifications that came while one ran, never two at once', async () => {
    const clock = fakeClock();
    let running = 0;
    let most = 0;
    let finish: () => void = () => undefined;
    let relists = 0;
    const gate = new RelistGate(
      () => {
        relists += 1;
        running += 1;
        most = Math.max(most, running);
        return new Promise<void>((done) => {
          finish = () => {
            running -= 1;
            done();
          };
        });
      },
      { timers: clock.timers, now: clock.now },
    );
    gate.notify();
    await clock.advance(0);
    for (let i = 0; i < 10; i += 1) gate.notify();
    await clock.advance(5_000);
    expect(relists).toBe(1);
    finish();
    await clock.advance(1_000);
    expect(relists).toBe(2);
    finish();
    await clock.advance(5_000);
    expect(relists).toBe(2);
    expect(most).toBe(1);
  });

  it('runs nothing once stopped', async () => {
    const { clock, gate, relists } = countingGate();
    gate.notify();
    await clock.advance(0);
    gate.notify();
    gate.stop();
    gate.notify();
    await clock.advance(5_000);
    expect(relists()).toBe(1);
  });
});
