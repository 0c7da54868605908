import { OutboundPolicy } from './address-policy';
import { OutboundGuard, systemResolver, type Resolver } from './guarded-fetch';
import { tenantOutbound, type OutboundConfig, type TenantOutboundConfig } from './outbound-config';

/** The outbound guard of each tenant: `mcp.outbound`, with its own `tenants.<id>.mcpOutbound` added. */
export class TenantGuards {
  readonly #global: OutboundGuard;
  /** Only tenants with a section of their own; every other tenant gets the global guard. */
  readonly #own = new Map<string, OutboundGuard>();

  constructor(
    global: OutboundConfig,
    tenants: Readonly<Record<string, { readonly mcpOutbound?: TenantOutboundConfig | undefined }>>,
    resolver: Resolver = systemResolver,
  ) {
    this.#global = new OutboundGuard(new OutboundPolicy(global), resolver);
    for (const [tenant, { mcpOutbound }] of Object.entries(tenants)) {
      if (mcpOutbound !== undefined)
        this.#own.set(tenant, new OutboundGuard(new OutboundPolicy(tenantOutbound(global, mcpOutbound)), resolver));
    }
  }

  guardFor(tenant: string): OutboundGuard {
    return this.#own.get(tenant) ?? this.#global;
  }
}
