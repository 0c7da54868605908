import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { FanoutScheduler } from './fanout-scheduler';
import { TierFanout, type TierFanoutDeps } from './tier-fanout';

/**
 * The walks over held sessions in isolation: a scheduler of the real kind, and stand-ins for the
 * parts a walk does not reach (no NATS, no Redis: the store has no stored sessions to scan).
 */
function fanoutWith(held: number, stored = 0) {
  const walks: { at: number; toolsets: string[] }[] = [];
  const passes: number[] = [];
  const scheduler = new FanoutScheduler({ log: pino({ level: 'silent' }), run: async () => undefined });
  const actors = {
    heldBy: () => held,
    notHeld: () => [],
    *toolsetsChanged(_tenant: string, toolsets: readonly string[]) {
      walks.push({ at: performance.now(), toolsets: [...toolsets].sort() });
      for (let i = 0; i < held; i += 1) yield;
    },
  };
  const store = {
    onReady: () => () => undefined,
    // `stored` ids, every one held here: a pass lists them and finds nothing to re-assemble.
    async *scanIds(): AsyncGenerator<string[]> {
      passes.push(performance.now());
      for (let listed = 0; listed < stored; listed += 1000)
        yield Array.from({ length: Math.min(1000, stored - listed) }, (_, i) => `s${listed + i}`);
    },
    loadMany: async () => [],
  };
  const fanout = new TierFanout({
    actors,
    store,
    reassembly: scheduler,
    log: pino({ level: 'silent' }),
  } as unknown as TierFanoutDeps);
  const change = (toolsetId: string) =>
    fanout.onRegistryChange({ tenant: 't', toolsetId } as Parameters<TierFanout['onRegistryChange']>[0]);
  /** How long after the first walk began the second did. */
  const gap = () => (walks[1]?.at ?? NaN) - (walks[0]?.at ?? NaN);
  /** How long after the first pass over the store began the second did. */
  const passGap = () => (passes[1] ?? NaN) - (passes[0] ?? NaN);
  return { walks, passes, change, scheduler, fanout, gap, passGap };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('TierFanout walks', () => {
  it('spaces the walks of a tenant with many held sessions and tells the changes between them together', async () => {
    // 4,000 held sessions: walks start at least 200 ms apart.
    const { walks, change, fanout, gap } = fanoutWith(4_000);
    change('a');
    await sleep(20);
    for (const id of ['b', 'c', 'd']) {
      change(id);
      await sleep(10);
    }
    await sleep(400);
    fanout.close();
    expect(walks.map((walk) => walk.toolsets)).toEqual([['a'], ['b', 'c', 'd']]);
    // At least the spacing, less the time the scheduler may take to first step the first walk
    // (`walks[0].at`; 14 ms on a loaded CI machine in the test below). Without spacing: ~20 ms.
    expect(gap()).toBeGreaterThanOrEqual(180);
  });

  it('does not delay the walks of a tenant with few sessions', async () => {
    const { walks, change, fanout } = fanoutWith(10);
    change('a');
    await sleep(20);
    const changed = performance.now();
    change('b');
    await sleep(50);
    fanout.close();
    expect(walks.map((walk) => walk.toolsets)).toEqual([['a'], ['b']]);
    // 10 sessions call for half a millisecond between walks: the second starts at once.
    expect((walks[1]?.at ?? NaN) - changed).toBeLessThan(40);
  });

  it('caps the spacing at a second however many sessions are held', async () => {
    const { walks, change, fanout, gap } = fanoutWith(100_000);
    change('a');
    await sleep(5);
    change('b');
    await sleep(1_600);
    fanout.close();
    expect(walks.map((walk) => walk.toolsets)).toEqual([['a'], ['b']]);
    // The spacing runs from when the first walk was started; `walks[0].at` is noted when the
    // scheduler first steps it, which on a loaded machine was 14 ms later (CI saw 986 ms here).
    expect(gap()).toBeGreaterThanOrEqual(950);
    expect(gap()).toBeLessThan(1_500);
  });
});

describe('TierFanout passes over the store', () => {
  it('spaces the passes of a tenant by what its re-assembly budget takes for the ids the last one listed', async () => {
    // 5,000 stored ids at 2,000 re-assemblies a second: passes at least 2.5 s apart.
    const { passes, change, fanout, passGap } = fanoutWith(0, 5_000);
    change('a');
    await sleep(50);
    change('b');
    await sleep(1_500);
    expect(passes).toHaveLength(1);
    await sleep(1_300);
    fanout.close();
    expect(passes).toHaveLength(2);
    expect(passGap()).toBeGreaterThanOrEqual(2_490);
  });

  it('starts passes a second apart when the tenant has few stored sessions', async () => {
    const { passes, change, fanout, passGap } = fanoutWith(0, 10);
    change('a');
    await sleep(50);
    change('b');
    await sleep(1_300);
    fanout.close();
    expect(passes).toHaveLength(2);
    expect(passGap()).toBeGreaterThanOrEqual(990);
    expect(passGap()).toBeLessThan(1_250);
  });
});
