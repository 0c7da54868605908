import { assign, enqueueActions, fromPromise, setup } from 'xstate';
import { grantReaches } from './grant';
import type { SessionDescriptor } from './session-store.adapter';

/**
 * One turn of a session (a `sessions.<s>.dispatch` or an MCP `tools/call`): run with the session's
 * descriptor as it is when the turn starts; the caller awaits `resolve`/`reject`.
 */
export interface PendingTurn {
  readonly run: (descriptor: SessionDescriptor) => Promise<unknown>;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

/** What an assembly of the session decided (the actor decides the `auto:N` latch from it). */
export interface AssembledFacts {
  readonly mode: 'off' | 'on' | 'budget';
  readonly activated: boolean;
  readonly tier: number;
  readonly hash: string;
}

export interface SessionContext {
  /** The session's persistent part (a copy of what Redis holds). */
  readonly descriptor: SessionDescriptor;
  /** Turns waiting, oldest first; while `busy` the first one is running. */
  readonly queue: readonly PendingTurn[];
  /** Children spawned from this session that are still open (as far as this replica saw). */
  readonly children: readonly string[];
  /** How long an actor without events stays before it lets go (the replica keeps the descriptor). */
  readonly idleMs: number;
  /** Set by `close` during a turn: the session ends once that turn is done. */
  readonly closing: boolean;
}

export type SessionEvent =
  /** A newer stored copy (another replica or a module of this one changed it). */
  | { type: 'descriptor'; descriptor: SessionDescriptor; surfaceChanged?: boolean }
  | { type: 'turn'; turn: PendingTurn }
  | { type: 'assembled'; facts: AssembledFacts }
  | { type: 'toolsets.changed'; toolsets: readonly string[] }
  | { type: 'child.spawned'; id: string }
  | { type: 'child.closed'; id: string }
  | { type: 'close' };

/**
 * The session's rule for a toolset change: it re-assembles when its grant reaches one of the
 * changed toolsets. The machine's guard applies it, and so does `SessionActors` for a session
 * whose actor is parked (a change that needs nothing else is not worth waking an actor for).
 */
export function reassemblesOnChange(descriptor: SessionDescriptor, toolsets: readonly string[]): boolean {
  return grantReaches(descriptor.grant, toolsets);
}

/** Turns one session may have waiting behind its running turn; more are refused at once. */
export const MAX_WAITING_TURNS = 32;

/** A turn refused because the session already has `MAX_WAITING_TURNS` waiting. */
export class TurnQueueFullError extends Error {
  constructor() {
    super(`this session already has ${MAX_WAITING_TURNS} turns waiting; send more once their replies arrive.`);
  }
}

/** Why a queued turn did not run. */
export class SessionClosedError extends Error {
  constructor() {
    super('the session was closed before this turn could run.');
  }
}

/**
 * A session actor's behaviour: it owns the session's descriptor (grant, activation latch, found
 * tools), its children, and its turns. Turns run one at a time in the order
 * they came; lookups (assemble, search, describe) read the actor's descriptor without waiting for a
 * turn and report what they decided. The actor alone decides when a session re-assembles (a
 * toolset of its grant changed, its surface-shaping settings changed) and when its `auto:N` bridge
 * latches on. Effects — running a turn, re-assembling, persisting the latch, letting go — are
 * provided by `SessionActors`; this definition is pure, and its idle timer runs on xstate's clock.
 */
export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    input: {} as { descriptor: SessionDescriptor; idleMs: number },
  },
  actors: {
    runTurn: fromPromise<unknown, { turn: PendingTurn; descriptor: SessionDescriptor }>(({ input }) =>
      input.turn.run(input.descriptor),
    ),
  },
  actions: {
    /** Re-assemble the session and publish its tier event if its surface changed. */
    reassemble: (_, _params: { descriptor: SessionDescriptor }) => undefined,
    /** Store the latch (Redis) and tell the other replicas. */
    persistLatch: (_, _params: { descriptor: SessionDescriptor }) => undefined,
    /**
     * The actor ends: closed (the session is gone) or idle (the replica keeps the descriptor and
     * rehydrates an actor on the session's next event).
     */
    release: (_, _params: { descriptor: SessionDescriptor; closed: boolean }) => undefined,
  },
  guards: {
    grantHolds: ({ context, event }) =>
      event.type === 'toolsets.changed' && reassemblesOnChange(context.descriptor, event.toolsets),
    latchNow: ({ context, event }) =>
      event.type === 'assembled' &&
      event.facts.mode === 'budget' &&
      event.facts.activated &&
      !context.descriptor.activated,
    hasQueued: ({ context }) => context.queue.length > 0,
    // The running turn is the queue's first entry.
    queueFull: ({ context }) => context.queue.length > MAX_WAITING_TURNS,
    isClosing: ({ context }) => context.closing,
  },
  delays: {
    idle: ({ context }) => context.idleMs,
  },
}).createMachine({
  id: 'session',
  context: ({ input }) => ({
    descriptor: input.descriptor,
    queue: [],
    children: [],
    idleMs: input.idleMs,
    closing: false,
  }),
  initial: 'idle',
  on: {
    descriptor: {
      actions: enqueueActions(({ event, enqueue }) => {
        enqueue.assign({ descriptor: event.descriptor });
        if (event.surfaceChanged === true) enqueue({ type: 'reassemble', params: { descriptor: event.descriptor } });
      }),
    },
    assembled: {
      guard: 'latchNow',
      actions: enqueueActions(({ context, enqueue }) => {
        const descriptor = { ...context.descriptor, activated: true };
        enqueue.assign({ descriptor });
        enqueue({ type: 'persistLatch', params: { descriptor } });
      }),
    },
    'toolsets.changed': {
      guard: 'grantHolds',
      actions: { type: 'reassemble', params: ({ context }) => ({ descriptor: context.descriptor }) },
    },
    'child.spawned': {
      actions: assign({ children: ({ context, event }) => [...context.children, event.id] }),
    },
    'child.closed': {
      actions: assign({ children: ({ context, event }) => context.children.filter((id) => id !== event.id) }),
    },
  },
  states: {
    idle: {
      after: { idle: 'released' },
      on: {
        turn: { target: 'busy', actions: assign({ queue: ({ event }) => [event.turn] }) },
        close: 'closed',
      },
    },
    busy: {
      invoke: {
        src: 'runTurn',
        input: ({ context }) => ({ turn: context.queue[0] as PendingTurn, descriptor: context.descriptor }),
        onDone: {
          target: 'next',
          actions: [
            ({ context, event }) => context.queue[0]?.resolve(event.output),
            assign({ queue: ({ context }) => context.queue.slice(1) }),
          ],
        },
        onError: {
          target: 'next',
          actions: [
            ({ context, event }) => context.queue[0]?.reject(event.error),
            assign({ queue: ({ context }) => context.queue.slice(1) }),
          ],
        },
      },
      on: {
        turn: [
          { guard: 'isClosing', actions: ({ event }) => event.turn.reject(new SessionClosedError()) },
          { guard: 'queueFull', actions: ({ event }) => event.turn.reject(new TurnQueueFullError()) },
          { actions: assign({ queue: ({ context, event }) => [...context.queue, event.turn] }) },
        ],
        // Closed during a turn: the running turn finishes, the waiting ones are refused now.
        close: {
          actions: [
            ({ context }) => context.queue.slice(1).forEach((turn) => turn.reject(new SessionClosedError())),
            assign({ queue: ({ context }) => context.queue.slice(0, 1), closing: true }),
          ],
        },
      },
    },
    next: {
      always: [{ guard: 'isClosing', target: 'closed' }, { guard: 'hasQueued', target: 'busy' }, { target: 'idle' }],
    },
    closed: {
      type: 'final',
      entry: [{ type: 'release', params: ({ context }) => ({ descriptor: context.descriptor, closed: true }) }],
    },
    released: {
      type: 'final',
      entry: { type: 'release', params: ({ context }) => ({ descriptor: context.descriptor, closed: false }) },
    },
  },
});
