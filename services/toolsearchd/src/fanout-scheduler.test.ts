import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { FanoutScheduler } from './fanout-scheduler';
import type { SessionDescriptor } from './session-store.adapter';

const descriptor = (tenant: string, id: string): SessionDescriptor => ({
  id,
  tenant,
  role: 'gateway',
  grant: { toolsets: ['x'] },
  model: { contextLength: 0 },
  coreTools: [],
  activated: false,
  createdAt: 0,
  lineage: [],
});

/** Busy-waits `ms` milliseconds: the synchronous part of a re-assembly. */
function work(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe('FanoutScheduler', () => {
  it("runs one tenant's 20,000 re-assemblies without holding the event loop, and serves another tenant in between", async () => {
    const done: string[] = [];
    const scheduler = new FanoutScheduler({
      log: pino({ level: 'silent' }),
      run: async (session) => {
        work(0.02);
        await Promise.resolve();
        done.push(`${session.tenant}/${session.id}`);
      },
    });
    const delay = monitorEventLoopDelay({ resolution: 1 });
    delay.enable();
    for (let i = 0; i < 20_000; i += 1) scheduler.enqueue(descriptor('a', `s${i}`));
    // Another tenant's change arrives a little later: it is not behind all of tenant a's work.
    await new Promise((resolve) => setTimeout(resolve, 5));
    scheduler.enqueue(descriptor('b', 'only'));
    await scheduler.idle();
    delay.disable();
    expect(done).toHaveLength(20_001);
    expect(done.indexOf('b/only')).toBeLessThan(5_000);
    // Slices of 4 ms: nothing near the seconds a one-go fan-out held the process for.
    expect(delay.max / 1e6).toBeLessThan(60);
  });

  it('keeps one entry per session (the newest descriptor) and starts again after going idle', async () => {
    const seen: SessionDescriptor[] = [];
    const scheduler = new FanoutScheduler({
      log: pino({ level: 'silent' }),
      run: async (session) => void seen.push(session),
    });
    scheduler.enqueue(descriptor('a', 's1'));
    scheduler.enqueue({ ...descriptor('a', 's1'), activated: true });
    await scheduler.idle();
    expect(seen).toHaveLength(1);
    expect(seen[0]?.activated).toBe(true);
    scheduler.enqueue(descriptor('a', 's2'));
    await scheduler.idle();
    expect(seen.map((session) => session.id)).toEqual(['s1', 's2']);
  });

  it('a failing re-assembly is logged and the rest still run', async () => {
    const ran: string[] = [];
    const scheduler = new FanoutScheduler({
      log: pino({ level: 'silent' }),
      run: async (session) => {
        if (session.id === 'bad') throw new Error('store away');
        ran.push(session.id);
      },
    });
    for (const id of ['one', 'bad', 'two']) scheduler.enqueue(descriptor('a', id));
    await scheduler.idle();
    expect(ran).toEqual(['one', 'two']);
  });
});
