import type { DaemonConfig } from './config';
import type { TurnContext } from './dispatch/turn-types';
import { policyFor } from './policy-config';
import type { ToolsetRegistry } from './registry.adapter';
import type { RoutingBudgets } from './routing-budgets';
import type { SessionDescriptor, SessionStore } from './session-store.adapter';
import type { SurfaceBuilder } from './surface';

/**
 * What a turn of a session runs against: the session's current surface (bridge over its tools),
 * its routing rules, its tenant's policy and routing allowance. Built fresh for every turn from
 * the descriptor the session's actor holds when the turn starts.
 */
export class TurnContexts {
  constructor(
    private readonly deps: {
      config: DaemonConfig;
      surfaces: SurfaceBuilder;
      registry: ToolsetRegistry;
      store: SessionStore;
      routingBudgets: RoutingBudgets;
    },
  ) {}

  of(descriptor: SessionDescriptor): TurnContext {
    const surface = this.deps.surfaces.forRequest(descriptor, this.deps.registry);
    return {
      tenant: descriptor.tenant,
      session: descriptor.id,
      role: descriptor.role,
      bridge: surface.bridge,
      routing: surface.config.config.routing,
      policy: policyFor(this.deps.config, descriptor.tenant),
      routingBudget: this.deps.routingBudgets.for(descriptor.tenant),
    };
  }

  /** The stored session's context, or undefined when it is gone (for approved calls run later). */
  async stored(tenant: string, session: string): Promise<TurnContext | undefined> {
    const descriptor = await this.deps.store.load(tenant, session);
    return descriptor === undefined ? undefined : this.of(descriptor);
  }
}
