import { describe, expect, it } from 'vitest';
import type { SearchHit } from './search-types';
import { applyUsageBoosts, UsageBoostRegistry, UsageBoosts } from './usage-boosts';

const DAY = 24 * 3600 * 1000;
const hit = (index: number, name: string, score: number): SearchHit => ({ index, name, score, reason: 'bm25' });

describe('UsageBoosts', () => {
  it('boosts the tool a tenant called after searching these words, and only for these words', () => {
    const boosts = new UsageBoosts();
    boosts.record('deploy the site', 'ci__run_pipeline', 0);
    boosts.record('deploy to production', 'ci__run_pipeline', 0);
    expect(boosts.boosts('deploy', 0).get('ci__run_pipeline')).toBeGreaterThan(0.5);
    expect(boosts.boosts('weather today', 0).size).toBe(0);
  });

  it('decays: an observation counts half after the half-life', () => {
    const boosts = new UsageBoosts({ halfLifeMs: 7 * DAY });
    boosts.record('deploy', 'a', 0);
    boosts.record('deploy', 'b', 7 * DAY);
    const later = boosts.boosts('deploy', 7 * DAY);
    expect((later.get('a') ?? 0) / (later.get('b') ?? 1)).toBeCloseTo(0.5, 6);
  });

  it('stays bounded in terms and in tools per term', () => {
    const boosts = new UsageBoosts({ maxTerms: 10, maxToolsPerTerm: 3 });
    for (let i = 0; i < 100; i += 1) boosts.record(`word${String.fromCharCode(97 + (i % 26))}${i}`, `tool${i}`, i);
    expect(boosts.size).toBe(10);
    for (let i = 0; i < 10; i += 1) boosts.record('deploy', `tool${i}`, 1000 + i);
    expect(boosts.boosts('deploy', 2000).size).toBe(3);
  });

  it('drops the least recently recorded term first', () => {
    const boosts = new UsageBoosts({ maxTerms: 3 });
    boosts.record('alpha', 'a', 0);
    boosts.record('bravo', 'b', 0);
    boosts.record('charlie', 'c', 0);
    boosts.record('alpha', 'a', 1);
    boosts.record('delta', 'd', 1);
    expect(boosts.size).toBe(3);
    expect(boosts.boosts('bravo', 1).size).toBe(0);
    expect(boosts.boosts('alpha', 1).get('a')).toBeGreaterThan(0);
    expect(boosts.boosts('charlie', 1).get('c')).toBeGreaterThan(0);
  });

  it('records a term over and over at a constant cost', () => {
    const boosts = new UsageBoosts({ maxTerms: 20_000 });
    for (let i = 0; i < 19_000; i += 1) boosts.record(`term${i.toString(36)}x`, 'filler', 0);
    const records = (count: number) => {
      const started = performance.now();
      for (let i = 0; i < count; i += 1) boosts.record('deploy', 'ci__run', i);
      return (performance.now() - started) / count;
    };
    // Deleting and re-adding the term in the Map on every record made each re-add walk the deleted
    // entries of every earlier record (V8 rebuilds the table only when it fills): 20 µs and more.
    const slowest = Math.max(records(20_000), records(20_000), records(20_000));
    expect(slowest * 1000).toBeLessThan(5);
  });

  it('never crosses tenants, and only opted-in tenants learn', () => {
    const registry = new UsageBoostRegistry();
    expect(registry.forTenant('t1')).toBeUndefined();
    registry.setOptIn('t1', true);
    registry.setOptIn('t2', true);
    registry.forTenant('t1')?.record('deploy', 'ci__run', 0);
    expect(registry.forTenant('t1')?.boosts('deploy', 0).size).toBe(1);
    expect(registry.forTenant('t2')?.boosts('deploy', 0).size).toBe(0);
    registry.setOptIn('t1', false);
    registry.setOptIn('t1', true);
    expect(registry.forTenant('t1')?.boosts('deploy', 0).size).toBe(0); // opting out forgets
  });

  it('re-ranks: a called tool moves up, one search missed joins, exact names stay first', () => {
    const hits = [
      { index: 9, name: 'exact', score: Number.POSITIVE_INFINITY, reason: 'exact' as const },
      hit(1, 'a', 10),
      hit(2, 'b', 8),
    ];
    const indexOf = (name: string) => ({ a: 1, b: 2, c: 3 })[name];
    const ranked = applyUsageBoosts(
      hits,
      new Map([
        ['b', 0.5],
        ['c', 0.6],
      ]),
      indexOf,
      4,
      1,
    );
    expect(ranked.map((h) => h.name)).toEqual(['exact', 'b', 'a', 'c']);
    expect(applyUsageBoosts(hits, new Map(), indexOf, 2)).toEqual(hits.slice(0, 2));
  });
});
