import { afterEach, describe, expect, it, vi } from 'vitest';
import { StoreWatch } from './store-watch';

describe('StoreWatch', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('tells listeners when the signature changes, not on the first read nor when they stay the same', async () => {
    vi.useFakeTimers();
    let ids = ['a-1'];
    const reads: string[] = [];
    const watch = new StoreWatch((tenant) => {
      reads.push(tenant);
      return Promise.resolve(ids.join(','));
    });
    let told = 0;
    const stop = await watch.watch('acme', () => (told += 1));
    expect(told).toBe(0);
    await vi.advanceTimersByTimeAsync(1000);
    expect(told).toBe(0);
    ids = ['a-1', 'a-2'];
    await vi.advanceTimersByTimeAsync(1000);
    expect(told).toBe(1);
    ids = ['a-2'];
    await vi.advanceTimersByTimeAsync(1000);
    expect(told).toBe(2);
    stop();
    const before = reads.length;
    await vi.advanceTimersByTimeAsync(5000);
    // The last listener gone, the tenant is no longer read.
    expect(reads.length).toBe(before);
    watch.close();
  });

  it('reads a tenant once per interval whatever the number of listeners, and survives a failed read', async () => {
    vi.useFakeTimers();
    let fail = false;
    let reads = 0;
    const watch = new StoreWatch(() => {
      reads += 1;
      return fail ? Promise.reject(new Error('redis away')) : Promise.resolve('');
    });
    const stops = await Promise.all([watch.watch('t', () => undefined), watch.watch('t', () => undefined)]);
    expect(reads).toBe(1);
    fail = true;
    await vi.advanceTimersByTimeAsync(3000);
    expect(reads).toBe(4);
    for (const stop of stops) stop();
    watch.close();
  });
});
