import { ToolsetSchema, type Toolset } from '@toolsearch/catalog';
import {
  McpAttachRequestSchema,
  McpDetachRequestSchema,
  ToolsetDeleteRequestSchema,
  ToolsetPutRequestSchema,
  WIRE_ERROR_CODES,
} from '@toolsearch/proto';
import type { Executors } from './dispatch/executors.adapter';
import type { McpPool, McpServerConfig } from './mcp-pool.adapter';
import type { ToolsetRegistry } from './registry.adapter';
import { parse, RequestError } from './serve-request';
import type { TierFanout } from './tier-fanout';

/**
 * Where a tenant's tools come from: `toolsets.put` / `.delete` (plugins, a gateway's tools) and
 * `mcp.attach` / `.detach` (MCP servers, whose tools this replica then also runs for the others
 * over `exec.mcp-<server>`). Every change is announced so sessions re-tier.
 */
export class ToolsetEndpoints {
  constructor(
    private readonly deps: {
      registry: ToolsetRegistry;
      fanout: TierFanout;
      mcp: McpPool;
      executors: Executors;
      /** Commands tenants may start as stdio MCP servers (`mcp.allowedCommands`). */
      allowedCommands: readonly string[];
      /** The deployment's queue group, for the `exec.mcp-<server>` subscription. */
      queue: string;
    },
  ) {}

  async put(tenant: string, body: unknown) {
    const { toolset } = parse(ToolsetPutRequestSchema, body);
    const parsed = ToolsetSchema.parse(toolset);
    const revision = await this.deps.registry.put(tenant, parsed);
    this.deps.fanout.publishToolsetChanged(tenant, parsed.id, revision, false);
    return { ok: true, id: parsed.id, revision };
  }

  async delete(tenant: string, body: unknown) {
    const { id } = parse(ToolsetDeleteRequestSchema, body);
    const deleted = await this.deps.registry.delete(tenant, id);
    this.deps.fanout.publishToolsetChanged(tenant, id, this.deps.registry.lastRevision, true);
    return { ok: true, id, deleted };
  }

  /** `mcp.attach` from a tenant: stdio servers only for commands the operator allowed. */
  async attach(tenant: string, body: unknown) {
    const request = parse(McpAttachRequestSchema, body);
    if (request.transport.type === 'stdio' && !this.deps.allowedCommands.includes(request.transport.command)) {
      throw new RequestError(
        WIRE_ERROR_CODES.FORBIDDEN,
        `stdio MCP servers can only run commands the operator allowed (mcp.allowedCommands); '${request.transport.command}' is not one of them.`,
      );
    }
    const { toolset, tools } = await this.attachServer(tenant, request);
    const revision = this.deps.registry.toolsets(tenant).get(toolset)?.revision ?? this.deps.registry.lastRevision;
    return { ok: true, toolset, tools, revision };
  }

  async detach(tenant: string, body: unknown) {
    const { name } = parse(McpDetachRequestSchema, body);
    const detached = await this.deps.mcp.detach(tenant, name);
    this.deps.executors.stopServingMcp(tenant, name);
    return { ok: true, toolset: `mcp-${name}`, detached };
  }

  /** Connects an MCP server for a tenant (no command check: for the operator's own config). */
  async attachServer(tenant: string, server: McpServerConfig): Promise<{ toolset: string; tools: number }> {
    const attached = await this.deps.mcp.attach(tenant, server);
    this.deps.executors.serveMcp(tenant, server.name, this.deps.queue);
    return attached;
  }

  /** Registers toolsets directly (config-declared catalogs at start). */
  async register(tenant: string, toolsets: readonly Toolset[]): Promise<void> {
    for (const toolset of toolsets) {
      const revision = await this.deps.registry.put(tenant, toolset);
      this.deps.fanout.publishToolsetChanged(tenant, toolset.id, revision, false);
    }
  }
}
