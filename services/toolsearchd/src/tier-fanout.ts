import { JSONCodec, type NatsConnection } from 'nats';
import type { Logger } from 'pino';
import { EVENTS, subject } from '@toolsearch/proto';
import type { RegistryChange, ToolsetRegistry } from './registry.adapter';
import type { SessionActors } from './session-actors';
import type { SessionDescriptor, SessionStore } from './session-store.adapter';
import type { SurfaceBuilder } from './surface';

const codec = JSONCodec<unknown>();

/**
 * Turns toolset changes into tier events: every session of the tenant that the change touches is
 * re-assembled, and a session whose surface (hash) changed gets one `evt.tier`, once across all
 * replicas (the hash swap in Redis decides who publishes).
 */
export class TierFanout {
  constructor(
    private readonly deps: {
      nc: NatsConnection;
      store: SessionStore;
      registry: ToolsetRegistry;
      surfaces: SurfaceBuilder;
      actors: SessionActors;
      log: Logger;
    },
  ) {}

  publishToolsetChanged(tenant: string, toolset: string, revision: number, deleted: boolean): void {
    this.deps.nc.publish(
      subject(EVENTS.toolsetChanged.template, { tenant }),
      codec.encode({ tenant, toolset, revision, deleted }),
    );
  }

  /** A registry change (from any replica or writer): every open session of the tenant is told. */
  onRegistryChange(change: RegistryChange): void {
    void (async () => {
      const { store, actors } = this.deps;
      // Sessions not in memory (never seen here, or dropped) are loaded so every one is told.
      const tracked = new Set(actors.sessionIds(change.tenant));
      const untracked: SessionDescriptor[] = [];
      for (const id of await store.list(change.tenant)) {
        if (tracked.has(id)) continue;
        const descriptor = await store.load(change.tenant, id);
        if (descriptor !== undefined && descriptor.grant.toolsets.includes(change.toolsetId))
          untracked.push(descriptor);
      }
      actors.toolsetsChanged(change.tenant, change.toolsetId);
      for (const descriptor of untracked) await this.reassemble(descriptor);
    })().catch((error: Error) =>
      this.deps.log.warn({ err: error.message, tenant: change.tenant }, 'could not fan out a toolset change'),
    );
  }

  /** Re-assembles one session and publishes its tier event if its surface changed. */
  async reassemble(descriptor: SessionDescriptor): Promise<void> {
    const { store, registry, nc, surfaces } = this.deps;
    const { result } = surfaces.build(descriptor, registry).assembly;
    if (!(await store.swapHash(descriptor.tenant, descriptor.id, result.hash))) return;
    nc.publish(
      subject(EVENTS.sessionTier.template, { tenant: descriptor.tenant, session: descriptor.id }),
      codec.encode({
        tenant: descriptor.tenant,
        session: descriptor.id,
        tier: result.tier,
        listing_form: result.listing_form,
        deferred_count: result.deferred_count,
        listing_tokens: result.listing_tokens,
        hash: result.hash,
      }),
    );
  }
}
