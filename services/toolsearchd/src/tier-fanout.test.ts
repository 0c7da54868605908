import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { FanoutScheduler } from './fanout-scheduler';
import { TierFanout, type TierFanoutDeps } from './tier-fanout';

/**
 * The walks over held sessions in isolation: a scheduler of the real kind, and stand-ins for the
 * parts a walk does not reach (no NATS, no Redis: the store has no stored sessions to scan).
 */
function fanoutWith(held: number) {
  const walks: { at: number; toolsets: string[] }[] = [];
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
    // No session only Redis holds: every pass over the store finds nothing.
    async *scanIds(): AsyncGenerator<string[]> {
      yield [];
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
  return { walks, change, scheduler, fanout, gap };
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
    expect(gap()).toBeGreaterThanOrEqual(195);
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
    expect(gap()).toBeGreaterThanOrEqual(995);
    expect(gap()).toBeLessThan(1_500);
  });
});
