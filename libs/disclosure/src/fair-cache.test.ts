import { describe, expect, it } from 'vitest';
import { FairCache } from './fair-cache';

describe('FairCache', () => {
  it("lets the largest holder give way: one owner's flood never evicts another's entries", () => {
    const cache = new FairCache<number>(10);
    for (let at = 0; at < 3; at += 1) cache.set(`quiet-${at}`, at, 'quiet');
    for (let at = 0; at < 100; at += 1) cache.set(`flood-${at}`, at, 'flood');
    expect(cache.size).toBe(10);
    expect(cache.heldBy('quiet')).toBe(3);
    expect(cache.heldBy('flood')).toBe(7);
    for (let at = 0; at < 3; at += 1) expect(cache.get(`quiet-${at}`)).toBe(at);
    // The flood kept its newest entries.
    expect(cache.get('flood-99')).toBe(99);
    expect(cache.get('flood-92')).toBeUndefined();
  });

  it("evicts the largest holder's least recently used entry, a hit counting as use", () => {
    const cache = new FairCache<string>(4);
    cache.set('a1', 'a1', 'a');
    cache.set('a2', 'a2', 'a');
    cache.set('a3', 'a3', 'a');
    cache.set('b1', 'b1', 'b');
    cache.get('a1');
    cache.set('b2', 'b2', 'b');
    // 'a' held the most: its least recently used (a2, since a1 was just read) went.
    expect(cache.get('a2')).toBeUndefined();
    expect(cache.get('a1')).toBe('a1');
    expect(cache.heldBy('a')).toBe(2);
    expect(cache.heldBy('b')).toBe(2);
  });

  it('makes a value once and counts it to the owner that made it', () => {
    const cache = new FairCache<number>(4);
    let made = 0;
    const make = () => (made += 1);
    expect(cache.getOrMake('k', 'x', make)).toBe(1);
    expect(cache.getOrMake('k', 'y', make)).toBe(1);
    expect(made).toBe(1);
    expect(cache.heldBy('x')).toBe(1);
    expect(cache.heldBy('y')).toBe(0);
  });
});
