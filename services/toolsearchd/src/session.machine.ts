import { enqueueActions, sendTo, setup, stopChild, type ActorRefFrom } from 'xstate';
import type { SessionDescriptor } from './session-store.adapter';

/** Events a session actor handles. */
export type SessionEvent =
  | { type: 'toolsets.changed'; toolsetId: string }
  | { type: 'session.descriptor'; descriptor: SessionDescriptor };

/**
 * One open session on this replica: holds its descriptor (a cache of Redis) and re-assembles when
 * a toolset in its grant changes. The re-assembly itself is the `reassemble` action, provided by
 * the daemon (it has the stores and the NATS connection).
 */
export const sessionMachine = setup({
  types: {
    context: {} as { descriptor: SessionDescriptor },
    events: {} as SessionEvent,
    input: {} as { descriptor: SessionDescriptor },
  },
  actions: {
    reassemble: (_, _params: { descriptor: SessionDescriptor }) => undefined,
  },
  guards: {
    grantIncludes: ({ context }, params: { toolsetId: string }) =>
      context.descriptor.grant.toolsets.includes(params.toolsetId),
  },
}).createMachine({
  id: 'session',
  context: ({ input }) => ({ descriptor: input.descriptor }),
  on: {
    'toolsets.changed': {
      guard: { type: 'grantIncludes', params: ({ event }) => ({ toolsetId: event.toolsetId }) },
      actions: { type: 'reassemble', params: ({ context }) => ({ descriptor: context.descriptor }) },
    },
    'session.descriptor': {
      actions: enqueueActions(({ event, enqueue }) => enqueue.assign({ descriptor: event.descriptor })),
    },
  },
});

export type TenantEvent =
  | { type: 'session.track'; descriptor: SessionDescriptor }
  | { type: 'session.untrack'; id: string }
  | { type: 'toolsets.changed'; toolsetId: string };

/**
 * The supervisor of one tenant's sessions on this replica: spawns a session actor per open
 * session, stops it on close, and forwards toolset changes to all of them (each decides whether
 * its grant is concerned).
 */
export const tenantMachine = setup({
  types: {
    context: {} as { tenant: string; sessions: Record<string, ActorRefFrom<typeof sessionMachine>> },
    events: {} as TenantEvent,
    input: {} as { tenant: string },
  },
  actors: { session: sessionMachine },
}).createMachine({
  id: 'tenant',
  context: ({ input }) => ({ tenant: input.tenant, sessions: {} }),
  on: {
    'session.track': {
      actions: enqueueActions(({ context, event, enqueue }) => {
        const existing = context.sessions[event.descriptor.id];
        if (existing !== undefined) {
          enqueue.sendTo(existing, { type: 'session.descriptor', descriptor: event.descriptor });
          return;
        }
        enqueue.assign({
          sessions: ({ spawn }) => ({
            ...context.sessions,
            [event.descriptor.id]: spawn('session', {
              id: event.descriptor.id,
              input: { descriptor: event.descriptor },
            }),
          }),
        });
      }),
    },
    'session.untrack': {
      actions: enqueueActions(({ context, event, enqueue }) => {
        if (context.sessions[event.id] === undefined) return;
        enqueue(stopChild(event.id));
        const { [event.id]: _removed, ...rest } = context.sessions;
        enqueue.assign({ sessions: rest });
      }),
    },
    'toolsets.changed': {
      actions: enqueueActions(({ context, event, enqueue }) => {
        for (const ref of Object.values(context.sessions))
          enqueue(sendTo(ref, { type: 'toolsets.changed', toolsetId: event.toolsetId }));
      }),
    },
  },
});
