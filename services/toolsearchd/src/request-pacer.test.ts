import { describe, expect, it } from 'vitest';
import { RequestPacer } from './request-pacer';

describe('RequestPacer', () => {
  it('lets a burst through at once, then spaces requests by their weight over the limit', () => {
    const pacer = new RequestPacer({ burstShare: 0.1, minBurst: 10, maxWaitMs: 1_000 });
    const limit = 1_000; // 1 ms a unit; a burst of 100
    expect(pacer.burst(limit)).toBe(100);
    const delays: number[] = [];
    for (let i = 0; i < 110; i += 1) {
      const delay = pacer.delay('a', limit, 1, 0);
      if (typeof delay !== 'number') throw new Error(delay);
      delays.push(delay);
      pacer.take('a', limit, 1, 0);
    }
    expect(delays.slice(0, 100).every((delay) => delay === 0)).toBe(true);
    expect(delays.slice(100)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    // Another tenant is not behind anyone.
    expect(pacer.delay('b', limit, 1, 0)).toBe(0);
    // The schedule pays itself off as time passes: 60 ms later there is room again.
    expect(pacer.delay('a', limit, 1, 60)).toBe(0);
    // A heavier request needs more room: its own weight counts.
    expect(pacer.delay('a', limit, 100, 60)).toBe(50);
  });

  it('runs an idle tenant’s request at once whatever its weight', () => {
    const pacer = new RequestPacer({ minBurst: 10 });
    expect(pacer.delay('idle', 1_000, 1_000, 0)).toBe(0);
  });

  it('lets a tenant whose limit is within the least burst spend its whole second at once', () => {
    const pacer = new RequestPacer({ minBurst: 50 });
    expect(pacer.burst(20)).toBe(20);
    for (let i = 0; i < 20; i += 1) {
      expect(pacer.delay('small', 20, 1, 0)).toBe(0);
      pacer.take('small', 20, 1, 0);
    }
  });

  it('refuses a request whose slot is further away than the longest wait', () => {
    const pacer = new RequestPacer({ burstShare: 0.1, minBurst: 10, maxWaitMs: 50 });
    pacer.take('a', 1_000, 149, 0); // 149 ms of schedule, 100 of them burst
    expect(pacer.delay('a', 1_000, 1, 0)).toBe(50);
    pacer.take('a', 1_000, 1, 0);
    expect(pacer.delay('a', 1_000, 1, 0)).toBe('too-far-behind');
    expect(pacer.delay('a', 1_000, 1, 1)).toBe(50);
  });

  it('refuses past the waiting requests a tenant, and all tenants, may have', async () => {
    const pacer = new RequestPacer({ burstShare: 0.1, minBurst: 10, maxWaitMs: 1_000, perTenant: 2, total: 3 });
    const now = performance.now();
    pacer.take('a', 1_000, 200, now);
    pacer.take('b', 1_000, 200, now);
    const waits = [pacer.wait('a', 30), pacer.wait('a', 30)];
    expect(pacer.delay('a', 1_000, 1, now)).toBe('too-many-waiting');
    expect(typeof pacer.delay('b', 1_000, 1, now)).toBe('number');
    waits.push(pacer.wait('b', 30));
    expect(pacer.waiting).toBe(3);
    // b has one waiting of its two, but the daemon's three places are taken.
    expect(pacer.delay('b', 1_000, 1, now)).toBe('daemon-busy');
    await Promise.all(waits);
    expect(pacer.waiting).toBe(0);
    expect(typeof pacer.delay('a', 1_000, 1, now)).toBe('number');
  });

  it('refuses past the payload bytes a tenant, and all tenants, may have waiting', async () => {
    const pacer = new RequestPacer({
      burstShare: 0.1,
      minBurst: 10,
      maxWaitMs: 1_000,
      perTenantBytes: 1_000,
      totalBytes: 1_500,
    });
    const now = performance.now();
    for (const tenant of ['a', 'b', 'c']) pacer.take(tenant, 1_000, 200, now);
    // A tenant's first waiting request may wait whatever its size.
    expect(typeof pacer.delay('a', 1_000, 1, now, 5_000)).toBe('number');
    const waits = [pacer.wait('a', 30, 900)];
    expect(pacer.delay('a', 1_000, 1, now, 200)).toBe('too-many-waiting');
    expect(typeof pacer.delay('a', 1_000, 1, now, 100)).toBe('number');
    waits.push(pacer.wait('b', 30, 500));
    // b may hold 500 more of its own, but the daemon holds 1,400 of its 1,500.
    expect(pacer.delay('b', 1_000, 1, now, 200)).toBe('daemon-busy');
    expect(pacer.delay('c', 1_000, 1, now, 200)).toBe('daemon-busy');
    expect(typeof pacer.delay('c', 1_000, 1, now, 100)).toBe('number');
    await Promise.all(waits);
    expect(pacer.waiting).toBe(0);
    expect(typeof pacer.delay('a', 1_000, 1, now, 1_500)).toBe('number');
  });

  it('wakes every waiting request when closed, and waits no more', async () => {
    const pacer = new RequestPacer();
    const started = performance.now();
    const waits = [pacer.wait('a', 10_000), pacer.wait('b', 10_000)];
    expect(pacer.waiting).toBe(2);
    pacer.close();
    await Promise.all(waits);
    expect(pacer.closed).toBe(true);
    expect(pacer.waiting).toBe(0);
    await pacer.wait('a', 10_000);
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
