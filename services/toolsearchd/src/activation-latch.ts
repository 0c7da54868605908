import type { AssemblyResult } from '@toolsearch/disclosure';
import type { SessionActors } from './session-actors';
import type { SessionDescriptor, SessionStore } from './session-store.adapter';

/**
 * The `auto:N` latch (seed 003): a budget-gated session whose bridge turned on stays on for the
 * rest of the session, even when its deferrable tools later fall under N % of the context — the
 * tool array must not flip back and lose the prompt cache. Whichever assembly turns it on (a
 * request, or the re-tiering after a toolset change), the session's stored descriptor, this
 * replica's copy and every other replica's copy learn it at once.
 */
export class ActivationLatch {
  constructor(
    private readonly deps: {
      store: SessionStore;
      actors: SessionActors;
      /** Tells the other replicas to drop their copies of these sessions. */
      invalidate: (tenant: string, ids: readonly string[]) => void;
    },
  ) {}

  /** The descriptor to use from now on: latched when this assembly turned the bridge on. */
  async note(descriptor: SessionDescriptor, result: AssemblyResult): Promise<SessionDescriptor> {
    if (result.mode !== 'budget' || !result.activated || descriptor.activated) return descriptor;
    await this.deps.store.markActivated(descriptor.tenant, descriptor.id);
    const latched = { ...descriptor, activated: true };
    if (this.deps.actors.get(descriptor.tenant, descriptor.id) !== undefined) this.deps.actors.track(latched);
    this.deps.invalidate(descriptor.tenant, [descriptor.id]);
    return latched;
  }
}
