import { z } from 'zod';

/** What happens to a tool definition with a finding of a severity (see docs/security.md). */
export const VettingActionSchema = z.enum(['warn', 'strip', 'quarantine']);
export type VettingAction = z.infer<typeof VettingActionSchema>;

const HostSchema = z.string().min(1).max(253);
const ToolsetRefSchema = z.string().min(1).max(200);

const FIELDS = {
  /** Action for high-severity findings. */
  high: VettingActionSchema,
  /** Action for medium-severity findings. */
  medium: VettingActionSchema,
  /** Action for low-severity findings. */
  low: VettingActionSchema,
  /** Hosts whose links in descriptions are not reported (a host allows its subdomains). */
  allowedHosts: z.array(HostSchema).max(1000),
  /** Pin each tool's first accepted definition; later changes wait for `toolsets accept`. */
  pinning: z.boolean(),
  /** Toolsets (ids like `mcp-github`, or MCP server names) that are not pinned. */
  unpinned: z.array(ToolsetRefSchema).max(1000),
};

/**
 * How a tenant's tool definitions are vetted before any session sees them: the action per finding
 * severity, the hosts whose links are not findings, and pinning (a changed definition waits for an
 * operator). Defaults: quarantine on high, warn otherwise, pinning on.
 */
export const VettingConfigSchema = z
  .object({
    high: FIELDS.high.default('quarantine'),
    medium: FIELDS.medium.default('warn'),
    low: FIELDS.low.default('warn'),
    allowedHosts: FIELDS.allowedHosts.default([]),
    pinning: FIELDS.pinning.default(true),
    unpinned: FIELDS.unpinned.default([]),
  })
  .strict();
/** `tenants.<id>.vetting`: each key given replaces the top-level `vetting` value. */
export const TenantVettingSchema = z.object(FIELDS).partial().strict();
export type VettingConfig = z.infer<typeof VettingConfigSchema>;

/** The vetting of every tenant: the top-level settings overlaid with the tenant's own. */
export function tenantVetting(config: {
  vetting: VettingConfig;
  tenants: Record<string, { vetting?: Partial<VettingConfig> | undefined }>;
}): (tenant: string) => VettingConfig {
  const perTenant = new Map<string, VettingConfig>();
  for (const [tenant, settings] of Object.entries(config.tenants))
    if (settings.vetting !== undefined) perTenant.set(tenant, { ...config.vetting, ...settings.vetting });
  return (tenant) => perTenant.get(tenant) ?? config.vetting;
}

/** Whether a toolset of this tenant is pinned (pinning on, and neither its id nor server opted out). */
export function isPinned(vetting: VettingConfig, toolsetId: string): boolean {
  if (!vetting.pinning) return false;
  const server = toolsetId.startsWith('mcp-') ? toolsetId.slice(4) : toolsetId;
  return !vetting.unpinned.includes(toolsetId) && !vetting.unpinned.includes(server);
}
