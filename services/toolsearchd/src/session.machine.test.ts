import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { SimulatedClock } from 'xstate';
import { SessionActors } from './session-actors';
import { MAX_WAITING_TURNS, SessionClosedError, TurnQueueFullError } from './session.machine';
import { sessionDescriptor } from './session-fixture';
import type { SessionDescriptor } from './session-store.adapter';

const descriptor = (id: string, toolsets: string[] = ['a']) => sessionDescriptor(id, { toolsets });

/** A promise whose settling the test decides. */
function deferred<T = unknown>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

/** Lets promise callbacks (the actors' turn completions) run. */
const flush = () => new Promise((resolve) => setImmediate(resolve));

function setup(options: { idleMs?: number; parkMs?: number; limit?: number } = {}) {
  const clock = new SimulatedClock();
  const latched: SessionDescriptor[] = [];
  const reassembled: string[] = [];
  const held = new SessionActors({
    limit: options.limit ?? 100,
    log: pino({ level: 'silent' }),
    idleMs: options.idleMs ?? 60_000,
    ...(options.parkMs !== undefined ? { parkMs: options.parkMs } : {}),
    clock,
    effects: {
      reassemble: (d) => reassembled.push(d.id),
      persistLatch: (d) => {
        latched.push(d);
        return Promise.resolve();
      },
    },
  });
  return { clock, held, latched, reassembled };
}

const budgetOn = { mode: 'budget', activated: true, tier: 1, hash: 'h1' } as const;

describe('the session machine (simulated clock, no NATS)', () => {
  it('latches an auto:N bridge once and keeps it across a toolset removal and re-add', () => {
    const { held, latched } = setup();
    held.track(descriptor('s1'));
    held.assembled('acme', 's1', { mode: 'budget', activated: false, tier: 0, hash: 'h0' });
    expect(latched).toHaveLength(0);
    held.assembled('acme', 's1', budgetOn);
    expect(latched.map((d) => d.activated)).toEqual([true]);
    expect(held.get('acme', 's1')?.activated).toBe(true);
    // The heavy toolset leaves, then comes back: each change re-assembles the session, whose
    // assembly now keeps the bridge on (previouslyActive), and the latch is stored only once.
    for (const _ of held.toolsetsChanged('acme', ['a']));
    held.assembled('acme', 's1', { ...budgetOn, hash: 'h2' });
    for (const _ of held.toolsetsChanged('acme', ['a']));
    held.assembled('acme', 's1', { ...budgetOn, hash: 'h3' });
    expect(latched).toHaveLength(1);
    expect(held.get('acme', 's1')?.activated).toBe(true);
    held.stop();
  });

  it("runs one session's turns one at a time, in order, without blocking another session", async () => {
    const { held } = setup();
    const first = deferred();
    const order: string[] = [];
    const a1 = held.turn(descriptor('s1'), async () => {
      order.push('a1 start');
      await first.promise;
      order.push('a1 end');
      return 'a1';
    });
    const a2 = held.turn(descriptor('s1'), async () => {
      order.push('a2');
      return 'a2';
    });
    const b1 = held.turn(descriptor('s2'), async () => {
      order.push('b1');
      return 'b1';
    });
    await expect(b1).resolves.toBe('b1');
    expect(order).toEqual(['a1 start', 'b1']);
    first.resolve(undefined);
    await expect(a1).resolves.toBe('a1');
    await expect(a2).resolves.toBe('a2');
    expect(order).toEqual(['a1 start', 'b1', 'a1 end', 'a2']);
    held.stop();
  });

  it('passes a failed turn to its caller and goes on with the next', async () => {
    const { held } = setup();
    const failing = held.turn(descriptor('s1'), () => Promise.reject(new Error('executor down')));
    const next = held.turn(descriptor('s1'), () => Promise.resolve('ran'));
    await expect(failing).rejects.toThrow('executor down');
    await expect(next).resolves.toBe('ran');
    held.stop();
  });

  it('closed during a turn: the running turn finishes, waiting turns are refused, the actor ends', async () => {
    const { held } = setup();
    const gate = deferred();
    const running = held.turn(descriptor('s1'), async () => {
      await gate.promise;
      return 'finished';
    });
    const waiting = held.turn(descriptor('s1'), () => Promise.resolve('should not run'));
    await flush();
    held.close('acme', 's1', undefined);
    await expect(waiting).rejects.toBeInstanceOf(SessionClosedError);
    expect(held.holds('acme', 's1')).toBe(true);
    gate.resolve(undefined);
    await expect(running).resolves.toBe('finished');
    await flush();
    expect(held.holds('acme', 's1')).toBe(false);
    held.stop();
  });

  it('lets an idle session go after idleMs on the clock, and a turn restarts the wait', async () => {
    const { clock, held } = setup({ idleMs: 1000 });
    held.track(descriptor('s1'));
    clock.increment(900);
    await held.turn(descriptor('s1'), () => Promise.resolve(1));
    await flush();
    clock.increment(900);
    expect(held.holds('acme', 's1')).toBe(true);
    clock.increment(200);
    expect(held.holds('acme', 's1')).toBe(false);
    // Rehydrated from its stored descriptor on its next request.
    held.track(descriptor('s1'));
    expect(held.holds('acme', 's1')).toBe(true);
    held.stop();
  });

  it('re-assembles when its grant holds a changed toolset or its surface settings changed', () => {
    const { held, reassembled } = setup();
    held.track(descriptor('s1', ['a']));
    for (const _ of held.toolsetsChanged('acme', ['b']));
    expect(reassembled).toEqual([]);
    for (const _ of held.toolsetsChanged('acme', ['a']));
    held.track({ ...descriptor('s1', ['a']), found: ['x'] }, { surfaceChanged: true });
    expect(reassembled).toEqual(['s1', 's1']);
    held.stop();
  });

  it('never lets go of a session in a turn to make room, and refreshes a stale busy copy in place', async () => {
    const { held } = setup({ limit: 1 });
    const gate = deferred();
    const busy = held.turn(descriptor('s1'), async () => gate.promise);
    await flush();
    held.track(descriptor('s2'));
    expect(held.holds('acme', 's1')).toBe(true);
    held.forget('acme', 's1');
    expect(held.get('acme', 's1')).toBeUndefined();
    expect(held.holds('acme', 's1')).toBe(true);
    held.track(descriptor('s1', ['a', 'b']));
    expect(held.get('acme', 's1')?.grant.toolsets).toEqual(['a', 'b']);
    gate.resolve(undefined);
    await busy;
    held.stop();
  });

  it('refuses a turn beyond MAX_WAITING_TURNS waiting, and takes turns again once they drain', async () => {
    const { held } = setup();
    const gate = deferred();
    const running = held.turn(descriptor('s1'), async () => gate.promise);
    const waiting = Array.from({ length: MAX_WAITING_TURNS }, () =>
      held.turn(descriptor('s1'), () => Promise.resolve(1)),
    );
    await expect(held.turn(descriptor('s1'), () => Promise.resolve(2))).rejects.toBeInstanceOf(TurnQueueFullError);
    gate.resolve(undefined);
    await running;
    await Promise.all(waiting);
    await expect(held.turn(descriptor('s1'), () => Promise.resolve(3))).resolves.toBe(3);
    held.stop();
  });

  it('parks an actor without events: the session stays, keeps its latch, and its next event wakes it', async () => {
    const { clock, held, reassembled } = setup({ idleMs: 10_000, parkMs: 1000 });
    held.track(descriptor('s1', ['a']));
    expect(held.running('acme', 's1')).toBe(false); // opened: nothing to do yet
    held.assembled('acme', 's1', budgetOn);
    expect(held.running('acme', 's1')).toBe(true);
    clock.increment(1000);
    expect(held.running('acme', 's1')).toBe(false);
    expect(held.get('acme', 's1')?.activated).toBe(true);
    // A toolset change is judged on the parked descriptor, without an actor.
    for (const _ of held.toolsetsChanged('acme', ['a']));
    expect(reassembled).toEqual(['s1']);
    expect(held.running('acme', 's1')).toBe(false);
    // A turn wakes it, with the latched descriptor.
    await expect(held.turn(descriptor('s1', ['a']), (d) => Promise.resolve(d.activated))).resolves.toBe(true);
    expect(held.running('acme', 's1')).toBe(true);
    held.stop();
  });

  it('holds 10,000 opened sessions without an actor each', () => {
    const { held } = setup({ limit: 20_000 });
    for (let i = 0; i < 10_000; i += 1) held.track(descriptor(`s${i}`));
    expect(held.size).toBe(10_000);
    expect(held.active).toBe(0);
    held.stop();
  });
});
