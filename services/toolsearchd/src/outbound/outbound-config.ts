import { z } from 'zod';
import { parseAllowEntry } from './address-policy';

/**
 * One allow entry: a host name (`mcp.example.com`), a wildcard for its subdomains
 * (`*.example.com`), an address or a CIDR range (`127.0.0.1`, `10.0.0.0/8`, `fd00::/8`), or a URL
 * prefix (`https://mcp.internal:8443/v1/`: same scheme, host and port, path starting with it).
 */
export const OutboundAllowEntrySchema = z
  .string()
  .min(1)
  .max(2048)
  .refine(
    (entry) => parseAllowEntry(entry) !== undefined,
    'an allow entry is a host name, *.domain, an address, a CIDR range or an http(s) URL prefix',
  );

/**
 * `mcp.outbound`: where a tenant's `mcp.attach` may make the daemon connect. Addresses that are not
 * public (loopback, private, link-local, unspecified, multicast, reserved) are refused unless
 * allowed here; servers the operator declares under `tenants.<id>.mcp` are not checked.
 */
export const OutboundConfigSchema = z
  .object({
    /** Hosts, addresses, ranges and URL prefixes a tenant may reach whatever they resolve to. */
    allow: z.array(OutboundAllowEntrySchema).default([]),
    /**
     * Also admit loopback, RFC 1918, CGNAT (100.64/10) and IPv6 ULA (fc00::/7) addresses. Never
     * link-local (cloud metadata), unspecified, multicast or reserved ones: those need an allow entry.
     */
    allowPrivate: z.boolean().default(false),
  })
  .strict()
  .prefault({});
export type OutboundConfig = z.output<typeof OutboundConfigSchema>;

/** `tenants.<id>.mcpOutbound`: added to the global allow list; `allowPrivate` replaces the global one. */
export const TenantOutboundConfigSchema = z
  .object({
    allow: z.array(OutboundAllowEntrySchema).default([]),
    allowPrivate: z.boolean().optional(),
  })
  .strict();
export type TenantOutboundConfig = z.output<typeof TenantOutboundConfigSchema>;

/** The outbound policy that applies to one tenant's requests. */
export function tenantOutbound(global: OutboundConfig, tenant: TenantOutboundConfig | undefined): OutboundConfig {
  if (tenant === undefined) return global;
  return {
    allow: [...global.allow, ...tenant.allow],
    allowPrivate: tenant.allowPrivate ?? global.allowPrivate,
  };
}
