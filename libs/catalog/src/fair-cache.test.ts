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

  it('bounds the sum of weights: the heaviest holder gives way, a light owner keeps its entries', () => {
    const cache = new FairCache<string>(100, { maxWeight: 1_000 });
    cache.set('light', 'light', 'quiet', 100);
    for (let at = 0; at < 20; at += 1) cache.set(`heavy-${at}`, 'heavy', 'flood', 300);
    expect(cache.weight).toBeLessThanOrEqual(1_000);
    expect(cache.get('light')).toBe('light');
    expect(cache.weightHeldBy('flood')).toBe(900);
    // The flood kept its newest entries.
    expect(cache.get('heavy-19')).toBe('heavy');
    expect(cache.get('heavy-16')).toBeUndefined();
  });

  it('weighs by weight, not by count, when over the weight bound', () => {
    const cache = new FairCache<number>(100, { maxWeight: 100 });
    // Many light entries of one owner, one heavy entry of another.
    for (let at = 0; at < 10; at += 1) cache.set(`many-${at}`, at, 'many', 1);
    cache.set('big', 0, 'big', 80);
    cache.set('big-2', 0, 'big', 15);
    // 105 > 100: 'big' holds the most weight (95) though fewer entries, and gives up its oldest.
    expect(cache.get('big')).toBeUndefined();
    expect(cache.heldBy('many')).toBe(10);
    expect(cache.weight).toBe(25);
  });

  it('returns an entry heavier than the whole bound to its maker without keeping it', () => {
    const cache = new FairCache<string>(10, { maxWeight: 50 });
    cache.set('small', 'small', 'a', 10);
    expect(
      cache.getOrMake(
        'huge',
        'b',
        () => 'huge',
        () => 60,
      ),
    ).toBe('huge');
    expect(cache.get('huge')).toBeUndefined();
    expect(cache.get('small')).toBe('small');
    expect(cache.weight).toBe(10);
  });

  it('replacing a key moves its weight to the new owner', () => {
    const cache = new FairCache<string>(10, { maxWeight: 100 });
    cache.set('k', 'one', 'a', 40);
    cache.set('k', 'two', 'b', 30);
    expect(cache.weightHeldBy('a')).toBe(0);
    expect(cache.weightHeldBy('b')).toBe(30);
    expect(cache.weight).toBe(30);
    expect(cache.size).toBe(1);
  });

  it("turns an entry heavier than the bound away without giving up its owner's other entries", () => {
    const cache = new FairCache<string>(10, { maxWeight: 50 });
    for (let at = 0; at < 5; at += 1) cache.set(`b-${at}`, 'b', 'b', 5);
    expect(
      cache.getOrMake(
        'huge',
        'b',
        () => 'huge',
        () => 60,
      ),
    ).toBe('huge');
    expect(cache.heldBy('b')).toBe(5);
    expect(cache.get('huge')).toBeUndefined();
  });

  describe('keepNewest', () => {
    it("never gives up an owner's newest entry: owners needing one large entry each do not take turns", () => {
      const cache = new FairCache<string>(100, { maxWeight: 100, keepNewest: true });
      for (const owner of ['a', 'b', 'c']) cache.set(owner, owner, owner, 40);
      // 120 > 100, but each owner holds only its newest entry: all kept.
      expect(cache.weight).toBe(120);
      for (const owner of ['a', 'b', 'c']) expect(cache.get(owner)).toBe(owner);
      // An owner's second entry is what gives way, and only its own.
      cache.set('a-2', 'a-2', 'a', 10);
      expect(cache.get('a')).toBeUndefined();
      expect(cache.get('a-2')).toBe('a-2');
      expect(cache.get('b')).toBe('b');
      expect(cache.get('c')).toBe('c');
    });

    it("takes room from the owner with the most it may give up, not from one's only entry", () => {
      const cache = new FairCache<string>(100, { maxWeight: 60, keepNewest: true });
      cache.set('big', 'big', 'big', 50);
      for (let at = 0; at < 4; at += 1) cache.set(`small-${at}`, 'small', 'small', 5);
      // 70 > 60: 'big' may give up nothing (its one entry is its newest); 'small' gives up its oldest two.
      expect(cache.get('big')).toBe('big');
      expect(cache.heldBy('small')).toBe(2);
      expect(cache.get('small-3')).toBe('small');
    });

    it("keeps an entry heavier than the bound as its owner's newest, giving up its older ones", () => {
      const cache = new FairCache<string>(10, { maxWeight: 50, keepNewest: true });
      cache.set('other', 'other', 'other', 10);
      for (let at = 0; at < 3; at += 1) cache.set(`b-${at}`, 'b', 'b', 5);
      cache.set('huge', 'huge', 'b', 60);
      expect(cache.get('huge')).toBe('huge');
      expect(cache.heldBy('b')).toBe(1);
      expect(cache.get('other')).toBe('other');
    });
  });
});
