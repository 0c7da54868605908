import { enqueueActions, setup } from 'xstate';
import type { SessionDescriptor } from './session-store.adapter';

/** Events a session actor handles. */
export type SessionEvent = { type: 'session.descriptor'; descriptor: SessionDescriptor };

/**
 * One open session on this replica: holds its descriptor (a cache of Redis). Re-assembly after a
 * toolset change is decided by the fan-out (`SessionActors.toolsetsChanged`), a slice at a time;
 * making the session's actor own its tier, activation and turns is issue 18's redesign.
 */
export const sessionMachine = setup({
  types: {
    context: {} as { descriptor: SessionDescriptor },
    events: {} as SessionEvent,
    input: {} as { descriptor: SessionDescriptor },
  },
}).createMachine({
  id: 'session',
  context: ({ input }) => ({ descriptor: input.descriptor }),
  on: {
    'session.descriptor': {
      actions: enqueueActions(({ event, enqueue }) => enqueue.assign({ descriptor: event.descriptor })),
    },
  },
});
