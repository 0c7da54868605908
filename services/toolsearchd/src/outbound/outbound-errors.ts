import type { OutboundDecision } from './address-policy';

type Refusal = Exclude<OutboundDecision, { allowed: true }> | { readonly allowed: false; readonly rule: 'redirect' };

const HOW_TO_ALLOW =
  'the operator allows them with mcp.outbound.allow (a host, *.domain, address, CIDR range or URL prefix) or mcp.outbound.allowPrivate, globally or under tenants.<id>.mcpOutbound';

/**
 * What the tenant is told. One text per rule, never varying with the address kind, the port or
 * what answered there: a tenant must not learn more about the daemon's network from a refusal
 * than that it was refused.
 */
const MESSAGES: Record<Refusal['rule'], string> = {
  scheme: "refused by the daemon's outbound policy: MCP servers are reached over http: or https: only.",
  address: `refused by the daemon's outbound policy (mcp.outbound): the URL's host does not resolve to a public address. Loopback, private (RFC 1918, 100.64.0.0/10, fc00::/7), link-local (169.254.0.0/16, cloud metadata included, fe80::/10), unspecified, multicast and reserved addresses are refused unless ${HOW_TO_ALLOW}.`,
  redirect:
    "refused by the daemon's outbound policy: redirects are not followed; attach the URL the server redirects to.",
};

/** A URL, an address or a redirect the outbound policy refused; nothing was sent to where it led. */
export class OutboundRefusedError extends Error {
  readonly code = 'OUTBOUND_REFUSED';
  constructor(readonly refusal: Refusal) {
    super(MESSAGES[refusal.rule]);
    this.name = 'OutboundRefusedError';
  }

  /** The refused address kind (for the operator's log), if the rule was the address one. */
  get kind(): string | undefined {
    return this.refusal.rule === 'address' ? this.refusal.kind : undefined;
  }
}

/**
 * The one text a tenant gets when a server it may reach could not be attached, whatever the cause
 * (connection refused or reset, DNS, TLS, an answer that is not MCP, a redirect): the difference
 * between them is what a port scan reads.
 */
export function unreachableMessage(name: string): string {
  return `could not connect to MCP server '${name}': nothing at that URL answered as an MCP server (the connection failed, the answer was not MCP, or it was a redirect, which is not followed).`;
}
