import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { SimulatedClock } from 'xstate';
import { SessionActors } from './session-actors';
import { sessionDescriptor } from './session-fixture';

const descriptor = (id: string, toolsets: string[]) => sessionDescriptor(id, { toolsets });

/** Runs a telling walk to its end at once (the daemon's scheduler runs it in slices). */
function tellAll(steps: Iterable<void>): void {
  for (const _ of steps);
}

function actors(limit = 1000, maxBytes?: number) {
  const reassembled: string[] = [];
  const held = new SessionActors({
    limit,
    ...(maxBytes !== undefined ? { maxBytes } : {}),
    log: pino({ level: 'silent' }),
    effects: {
      reassemble: (d) => reassembled.push(`${d.id}:${d.grant.toolsets.join()}`),
      persistLatch: () => Promise.resolve(),
    },
  });
  return { held, reassembled };
}

describe('session actors', () => {
  it('re-assembles only the sessions whose grant holds the changed toolset', () => {
    const { held, reassembled } = actors();
    held.track(descriptor('s1', ['mcp-github']));
    held.track(descriptor('s2', ['mcp-slack']));
    tellAll(held.toolsetsChanged('acme', ['mcp-github']));
    expect(reassembled).toEqual(['s1:mcp-github']);
    held.forget('acme', 's1');
    tellAll(held.toolsetsChanged('acme', ['mcp-github']));
    expect(reassembled).toEqual(['s1:mcp-github']);
    expect(held.sessionIds('acme')).toEqual(['s2']);
    tellAll(held.toolsetsChanged('other-tenant', ['mcp-slack']));
    expect(reassembled).toHaveLength(1);
    held.stop();
  });

  it("updates a tracked session's descriptor instead of starting it twice", () => {
    const { held, reassembled } = actors();
    held.track(descriptor('s1', ['a']));
    held.track(descriptor('s1', ['a', 'b']));
    expect(held.sessionIds('acme')).toEqual(['s1']);
    tellAll(held.toolsetsChanged('acme', ['b']));
    expect(reassembled).toEqual(['s1:a,b']);
    held.stop();
  });

  it('drops the least recently used beyond its limit, and holds 10,000 sessions of one tenant', () => {
    const { held } = actors(2);
    held.track(descriptor('s1', []));
    held.track(descriptor('s2', []));
    held.get('acme', 's1');
    held.track(descriptor('s3', []));
    expect(held.sessionIds('acme').sort()).toEqual(['s1', 's3']);
    held.stop();
    // One actor per session, not children of one supervisor (xstate copies the children map on
    // every spawn, so 10,000 sessions of one tenant took ~45 s; BENCHMARKS.md has the numbers).
    const { held: many } = actors(20_000);
    for (let i = 0; i < 10_000; i += 1) many.track(descriptor(`s${i}`, ['a']));
    expect(many.size).toBe(10_000);
    expect(many.sessionIds('acme')).toHaveLength(10_000);
    many.stop();
    expect(many.size).toBe(0);
  });

  it('holds at most maxBytes of descriptors, letting the least recently used go first', () => {
    const { held } = actors(1000, 100_000);
    // Sessions that each bring a little over 20 KB as stored: four fit in 100,000 bytes.
    const bulky = (id: string) => ({ ...descriptor(id, ['mcp-github']), config: { padding: 'p'.repeat(20_000) } });
    for (let at = 0; at < 10; at += 1) held.track(bulky(`b${at}`));
    expect(held.bytes).toBeLessThanOrEqual(100_000);
    expect(held.size).toBe(4);
    expect(held.sessionIds('acme').sort()).toEqual(['b6', 'b7', 'b8', 'b9']);
    // A newer, smaller copy of a held session is counted at its new size.
    held.track(descriptor('b9', ['mcp-github']));
    expect(held.bytes).toBeLessThan(4 * 20_000);
    held.forget('acme', 'b8');
    expect(held.size).toBe(3);
    held.stop();
    expect(held.bytes).toBe(0);
  });

  it('tells which stored ids of a tenant it does not hold, after letting the idle ones go', () => {
    const clock = new SimulatedClock();
    const held = new SessionActors({
      limit: 100,
      idleMs: 1000,
      log: pino({ level: 'silent' }),
      effects: { reassemble: () => undefined, persistLatch: () => Promise.resolve() },
      clock,
    });
    held.track(descriptor('s1', ['a']));
    held.track(descriptor('s2', ['a']));
    expect(held.notHeld('acme', ['s1', 's2', 's3'])).toEqual(['s3']);
    expect(held.notHeld('other', ['s1'])).toEqual(['s1']);
    clock.increment(600);
    held.get('acme', 's2');
    clock.increment(600);
    // s1 has been idle longer than idleMs: it left memory, so the pass over the store must reach it.
    expect(held.notHeld('acme', ['s1', 's2'])).toEqual(['s1']);
    held.stop();
  });
});
