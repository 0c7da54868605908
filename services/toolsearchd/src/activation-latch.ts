import type { AssemblyResult } from '@toolsearch/disclosure';
import type { SessionActors } from './session-actors';
import type { SessionDescriptor, SessionStore } from './session-store.adapter';

/**
 * The `auto:N` latch (seed 003): a budget-gated session whose bridge turned on stays on for the
 * rest of the session, even when its deferrable tools later fall under N % of the context — the
 * tool array must not flip back and lose the prompt cache.
 *
 * The session's actor decides (session.machine.ts, `assembled`); this module reports assemblies to
 * it and carries out its decision: the stored descriptor, then every other replica's copy. A
 * session no actor holds here (a catch-up pass over stored sessions) is decided here by the same
 * rule. `note` resolves once the latch is stored, so the reply that showed the bridge on never
 * overtakes it.
 */
export class ActivationLatch {
  readonly #storing = new Map<string, Promise<void>>();

  constructor(
    private readonly deps: {
      store: SessionStore;
      actors: SessionActors;
      /** Tells the other replicas to drop their copies of these sessions. */
      invalidate: (tenant: string, ids: readonly string[]) => void;
    },
  ) {}

  /** Reports an assembly of the session; resolves once a latch it caused is stored. */
  async note(descriptor: SessionDescriptor, result: AssemblyResult): Promise<void> {
    const { tenant, id } = descriptor;
    if (this.deps.actors.holds(tenant, id)) {
      this.deps.actors.assembled(tenant, id, {
        mode: result.mode,
        activated: result.activated,
        tier: result.tier,
        hash: result.hash,
      });
      await this.#storing.get(`${tenant}\u0000${id}`);
      return;
    }
    if (result.mode === 'budget' && result.activated && !descriptor.activated)
      await this.persist({ ...descriptor, activated: true });
  }

  /** Stores a latched descriptor and tells the other replicas (the actor's `persistLatch` effect). */
  persist(descriptor: SessionDescriptor): Promise<void> {
    const key = `${descriptor.tenant}\u0000${descriptor.id}`;
    const storing = (async () => {
      await this.deps.store.markActivated(descriptor.tenant, descriptor.id);
      this.deps.invalidate(descriptor.tenant, [descriptor.id]);
    })();
    this.#storing.set(key, storing);
    void storing
      .finally(() => {
        if (this.#storing.get(key) === storing) this.#storing.delete(key);
      })
      .catch(() => undefined);
    return storing;
  }
}
