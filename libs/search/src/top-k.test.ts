import { describe, expect, it } from 'vitest';
import { TopK } from './top-k';

/** The reference: every offer sorted by score (high first), then id (low first), cut to k. */
function expected(offers: readonly [number, number][], k: number): number[] {
  return [...offers]
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, k)
    .map(([id]) => id);
}

describe('TopK', () => {
  it('keeps the best ids, best first, with ties going to the lower id whatever the order of offers', () => {
    const offers: [number, number][] = [
      [7, 1.5],
      [3, 2],
      [9, 2],
      [1, 0.5],
      [4, 2],
      [8, 3],
      [2, 1.5],
    ];
    for (const order of [offers, [...offers].reverse(), [...offers.slice(3), ...offers.slice(0, 3)]]) {
      const pool = new TopK(4);
      for (const [id, score] of order) pool.offer(id, score);
      expect([...pool.ids()]).toEqual(expected(offers, 4));
      expect([...pool.ids()]).toEqual([8, 3, 4, 9]);
    }
  });

  it('starts empty after a reset, including a reset to a larger capacity', () => {
    const pool = new TopK(2);
    pool.offer(1, 5);
    pool.offer(2, 6);
    pool.offer(3, 7);
    expect([...pool.ids()]).toEqual([3, 2]);
    pool.reset(5);
    expect(pool.size).toBe(0);
    expect(pool.capacity).toBe(5);
    let seed = 11;
    const offers: [number, number][] = [];
    for (let id = 0; id < 200; id += 1) {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      offers.push([id, (seed >>> 20) % 17]); // many equal scores
    }
    for (const [id, score] of offers) pool.offer(id, score);
    expect([...pool.ids()]).toEqual(expected(offers, 5));
    pool.reset(3);
    pool.offer(42, 1);
    expect([...pool.ids()]).toEqual([42]);
  });

  it("writes the kept ids best first into the caller's array and leaves the heap as it was", () => {
    const pool = new TopK(3);
    for (const [id, score] of [
      [5, 1],
      [6, 4],
      [7, 2],
      [8, 4],
    ] as const)
      pool.offer(id, score);
    const out = new Int32Array(8).fill(-1);
    expect(pool.sortedInto(out)).toBe(3);
    expect([...out.subarray(0, 3)]).toEqual([6, 8, 7]);
    expect(out[3]).toBe(-1);
    pool.offer(9, 3);
    expect([...pool.ids()]).toEqual([6, 8, 9]);
  });
});
