import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { sessionMachine, tenantMachine } from './session.machine';
import type { SessionDescriptor } from './session-store.adapter';

const descriptor = (id: string, toolsets: string[]): SessionDescriptor => ({
  id,
  tenant: 'acme',
  role: 'gateway',
  grant: { toolsets },
  model: { contextLength: 0 },
  coreTools: [],
  activated: false,
  createdAt: 0,
});

describe('tenantMachine', () => {
  it('re-assembles only the sessions whose grant holds the changed toolset', () => {
    const reassembled: string[] = [];
    const machine = tenantMachine.provide({
      actors: {
        session: sessionMachine.provide({
          actions: { reassemble: (_, params) => void reassembled.push(params.descriptor.id) },
        }),
      },
    });
    const actor = createActor(machine, { input: { tenant: 'acme' } }).start();
    actor.send({ type: 'session.track', descriptor: descriptor('s1', ['mcp-github']) });
    actor.send({ type: 'session.track', descriptor: descriptor('s2', ['mcp-slack']) });
    actor.send({ type: 'toolsets.changed', toolsetId: 'mcp-github' });
    expect(reassembled).toEqual(['s1']);
    actor.send({ type: 'session.untrack', id: 's1' });
    actor.send({ type: 'toolsets.changed', toolsetId: 'mcp-github' });
    expect(reassembled).toEqual(['s1']);
    expect(Object.keys(actor.getSnapshot().context.sessions)).toEqual(['s2']);
    actor.stop();
  });

  it("updates a tracked session's descriptor instead of spawning it twice", () => {
    const reassembled: string[] = [];
    const machine = tenantMachine.provide({
      actors: {
        session: sessionMachine.provide({
          actions: { reassemble: (_, params) => void reassembled.push(params.descriptor.grant.toolsets.join()) },
        }),
      },
    });
    const actor = createActor(machine, { input: { tenant: 'acme' } }).start();
    actor.send({ type: 'session.track', descriptor: descriptor('s1', ['a']) });
    actor.send({ type: 'session.track', descriptor: descriptor('s1', ['a', 'b']) });
    actor.send({ type: 'toolsets.changed', toolsetId: 'b' });
    expect(reassembled).toEqual(['a,b']);
    actor.stop();
  });
});
