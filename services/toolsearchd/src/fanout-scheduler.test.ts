import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { FanoutScheduler } from './fanout-scheduler';
import { sessionDescriptor } from './session-fixture';
import type { SessionDescriptor } from './session-store.adapter';

const descriptor = (tenant: string, id: string) => sessionDescriptor(id, { tenant, toolsets: ['x'] });

/** Busy-waits `ms` milliseconds: the synchronous part of a re-assembly. */
function work(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

/** A scheduler whose re-assemblies only record the session ids they ran, in order. */
function recording(options: { perTenantPerSecond: number; walkAhead: number }) {
  const done: string[] = [];
  const scheduler = new FanoutScheduler({
    log: pino({ level: 'silent' }),
    ...options,
    run: async (session) => void done.push(session.id),
  });
  return { scheduler, done };
}

describe('FanoutScheduler', () => {
  it("runs one tenant's 20,000 re-assemblies without holding the event loop, and serves another tenant in between", async () => {
    const done: string[] = [];
    const scheduler = new FanoutScheduler({
      log: pino({ level: 'silent' }),
      perTenantPerSecond: 1e9,
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
    // (It yields more than it works while the loop is busy: slow on purpose.)
  }, 30_000);

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

  it('walks 20,000 sessions in slices: the event loop is never held, and a newer walk of the tenant replaces the older', async () => {
    const scheduler = new FanoutScheduler({ log: pino({ level: 'silent' }), run: async () => undefined });
    const told: string[] = [];
    const ended: string[] = [];
    function* tell(label: string, count: number) {
      for (let i = 0; i < count; i += 1) {
        work(0.02); // an actor's event: tens of microseconds
        told.push(label);
        yield;
      }
    }
    const delay = monitorEventLoopDelay({ resolution: 1 });
    delay.enable();
    scheduler.walk('a', tell('first', 20_000), () => ended.push('first'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    // A second change of the same tenant: its walk takes over (it tells every session again).
    scheduler.walk('a', tell('second', 20_000), () => ended.push('second'));
    scheduler.walk('b', tell('b', 3), () => ended.push('b'));
    await scheduler.idle();
    delay.disable();
    expect(ended.sort()).toEqual(['b', 'second']);
    expect(told.filter((label) => label === 'second')).toHaveLength(20_000);
    expect(told.filter((label) => label === 'first').length).toBeLessThan(20_000);
    // Tenant b's short walk is not behind a's 20,000 steps.
    expect(told.indexOf('b')).toBeLessThan(told.lastIndexOf('second') - 10_000);
    // 20,000 × 20 µs is 400 ms of work; in slices no wait comes near it.
    expect(delay.max / 1e6).toBeLessThan(60);
  }, 30_000);

  it("walks only a little ahead of the tenant's re-assemblies, so its steps keep to the budget", async () => {
    const { scheduler, done } = recording({ perTenantPerSecond: 100, walkAhead: 10 });
    let told = 0;
    let ended = false;
    function* tell(tenant: string, count: number) {
      for (let i = 0; i < count; i += 1) {
        told += 1;
        scheduler.enqueue(descriptor(tenant, `s${i}`));
        yield;
      }
    }
    scheduler.walk('a', tell('a', 250), () => (ended = true));
    await new Promise((resolve) => setTimeout(resolve, 500));
    // One window's budget (100) re-assembled, at most 10 more told and waiting.
    expect(done).toHaveLength(100);
    expect(told).toBeLessThanOrEqual(110);
    expect(ended).toBe(false);
    await scheduler.idle();
    expect(ended).toBe(true);
    expect(told).toBe(250);
    expect(new Set(done).size).toBe(250);
  }, 10_000);

  it("a walk's sessions go before the tenant's other queued work, which does not hold the walk back", async () => {
    const { scheduler, done } = recording({ perTenantPerSecond: 100, walkAhead: 10 });
    // A pass over the store queued 500 sessions of the tenant (more than five windows' budget).
    for (let i = 0; i < 500; i += 1) scheduler.enqueue(descriptor('a', `stored${i}`));
    let ended = false;
    function* tell() {
      for (let i = 0; i < 20; i += 1) {
        scheduler.enqueue(descriptor('a', `held${i}`));
        yield;
      }
    }
    scheduler.walk('a', tell(), () => (ended = true));
    await new Promise((resolve) => setTimeout(resolve, 500));
    // All 20 held sessions in the first window's 100, the walk over; the backlog waits its turn.
    expect(ended).toBe(true);
    expect(done.filter((id) => id.startsWith('held'))).toHaveLength(20);
    expect(done.length).toBeLessThanOrEqual(100);
    scheduler.stop();
  }, 10_000);

  it("another tenant's work is not kept waiting while a tenant past its budget waits for the next second", async () => {
    const done: { id: string; at: number }[] = [];
    const scheduler = new FanoutScheduler({
      log: pino({ level: 'silent' }),
      perTenantPerSecond: 10,
      run: async (session) => void done.push({ id: session.id, at: performance.now() }),
    });
    for (let i = 0; i < 50; i += 1) scheduler.enqueue(descriptor('a', `s${i}`));
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Tenant a has spent its second; the scheduler waits for the next one.
    expect(done).toHaveLength(10);
    const changed = performance.now();
    scheduler.enqueue(descriptor('b', 'only'));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const b = done.find((entry) => entry.id === 'only');
    expect(b).toBeDefined();
    expect((b?.at ?? Infinity) - changed).toBeLessThan(200);
    expect(done).toHaveLength(11);
    scheduler.stop();
  }, 10_000);

  it("holds a tenant to its re-assemblies per second while another tenant's run at once", async () => {
    const done: string[] = [];
    const scheduler = new FanoutScheduler({
      log: pino({ level: 'silent' }),
      perTenantPerSecond: 100,
      run: async (session) => void done.push(session.tenant),
    });
    for (let i = 0; i < 250; i += 1) scheduler.enqueue(descriptor('a', `s${i}`));
    for (let i = 0; i < 5; i += 1) scheduler.enqueue(descriptor('b', `s${i}`));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(done.filter((tenant) => tenant === 'a')).toHaveLength(100);
    expect(done.filter((tenant) => tenant === 'b')).toHaveLength(5);
    await scheduler.idle();
    expect(done.filter((tenant) => tenant === 'a')).toHaveLength(250);
  }, 10_000);
});
