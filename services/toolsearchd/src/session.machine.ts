import { enqueueActions, setup } from 'xstate';
import type { SessionDescriptor } from './session-store.adapter';

/** Events a session actor handles. */
export type SessionEvent =
  | { type: 'toolsets.changed'; toolsetIds: readonly string[] }
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
    grantIncludes: ({ context }, params: { toolsetIds: readonly string[] }) =>
      params.toolsetIds.some((id) => context.descriptor.grant.toolsets.includes(id)),
  },
}).createMachine({
  id: 'session',
  context: ({ input }) => ({ descriptor: input.descriptor }),
  on: {
    'toolsets.changed': {
      guard: { type: 'grantIncludes', params: ({ event }) => ({ toolsetIds: event.toolsetIds }) },
      actions: { type: 'reassemble', params: ({ context }) => ({ descriptor: context.descriptor }) },
    },
    'session.descriptor': {
      actions: enqueueActions(({ event, enqueue }) => enqueue.assign({ descriptor: event.descriptor })),
    },
  },
});
