import type { Logger } from 'pino';
import { createActor, type ActorRefFrom } from 'xstate';
import { sessionMachine, tenantMachine } from './session.machine';
import type { SessionDescriptor } from './session-store.adapter';

/**
 * The replica's in-memory sessions: one supervisor actor per tenant, one session actor per
 * session it has seen, least recently used dropped beyond `limit`. Actors are a cache over Redis;
 * a dropped session comes back on its next request.
 */
export class SessionActors {
  readonly #tenants = new Map<string, ActorRefFrom<typeof tenantMachine>>();
  /** Least recently used first; keys are `tenant\u0000id`. */
  readonly #recent = new Map<string, SessionDescriptor>();
  readonly #limit: number;
  readonly #log: Logger;
  readonly #reassemble: (descriptor: SessionDescriptor) => Promise<void>;

  constructor(options: { limit: number; log: Logger; reassemble: (descriptor: SessionDescriptor) => Promise<void> }) {
    this.#limit = options.limit;
    this.#log = options.log;
    this.#reassemble = options.reassemble;
  }

  get size(): number {
    return this.#recent.size;
  }

  /** The cached descriptor, marked as just used; undefined when this replica does not hold it. */
  get(tenant: string, id: string): SessionDescriptor | undefined {
    const key = `${tenant}\u0000${id}`;
    const cached = this.#recent.get(key);
    if (cached !== undefined) {
      this.#recent.delete(key);
      this.#recent.set(key, cached);
    }
    return cached;
  }

  /** Keeps a session's actor in memory, dropping the least recently used beyond the limit. */
  track(descriptor: SessionDescriptor): void {
    const key = `${descriptor.tenant}\u0000${descriptor.id}`;
    this.#recent.delete(key);
    this.#recent.set(key, descriptor);
    this.tenant(descriptor.tenant).send({ type: 'session.track', descriptor });
    while (this.#recent.size > this.#limit) {
      const oldest = this.#recent.keys().next().value as string;
      this.#recent.delete(oldest);
      const [tenant = '', id = ''] = oldest.split('\u0000');
      this.#tenants.get(tenant)?.send({ type: 'session.untrack', id });
    }
  }

  /** Drops a session from memory (it reloads from Redis on its next request). */
  forget(tenant: string, id: string): void {
    if (!this.#recent.delete(`${tenant}\u0000${id}`)) return;
    this.#tenants.get(tenant)?.send({ type: 'session.untrack', id });
  }

  /** The tenant's supervisor, started on first use. */
  tenant(tenant: string): ActorRefFrom<typeof tenantMachine> {
    let actor = this.#tenants.get(tenant);
    if (actor === undefined) {
      const machine = tenantMachine.provide({
        actors: {
          session: sessionMachine.provide({
            actions: {
              reassemble: (_, params) => {
                void this.#reassemble(params.descriptor).catch((error: Error) =>
                  this.#log.warn({ err: error.message, tenant, session: params.descriptor.id }, 're-assembly failed'),
                );
              },
            },
          }),
        },
      });
      actor = createActor(machine, { input: { tenant } });
      // One tenant's failure must never take the process (and every other tenant) down.
      actor.subscribe({
        error: (error) => this.#log.error({ err: String(error), tenant }, 'tenant supervisor failed'),
      });
      actor.start();
      this.#tenants.set(tenant, actor);
    }
    return actor;
  }

  stop(): void {
    for (const actor of this.#tenants.values()) actor.stop();
    this.#tenants.clear();
    this.#recent.clear();
  }
}
