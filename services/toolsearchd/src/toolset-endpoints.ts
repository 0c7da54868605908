import { ToolsetSchema, type Toolset } from '@toolsearch/catalog';
import {
  McpAttachRequestSchema,
  McpDetachRequestSchema,
  ToolsetDeleteRequestSchema,
  ToolsetPutRequestSchema,
  WIRE_ERROR_CODES,
} from '@toolsearch/proto';
import type { Logger } from 'pino';
import type { Executors } from './dispatch/executors.adapter';
import { McpUnreachableError, type McpPool, type McpServerConfig } from './mcp-pool.adapter';
import { guardedFetch, type OutboundFetch } from './outbound/guarded-fetch';
import { OutboundRefusedError, unreachableMessage } from './outbound/outbound-errors';
import type { TenantGuards } from './outbound/tenant-guards';
import type { ToolsetRegistry } from './registry.adapter';
import { parse, RequestError } from './serve-request';
import type { QuotaGate } from './quotas';
import type { TierFanout } from './tier-fanout';

/**
 * Where a tenant's tools come from: `toolsets.put` / `.delete` (plugins, a gateway's tools) and
 * `mcp.attach` / `.detach` (MCP servers, whose tools this replica then also runs for the others
 * over a daemon-only relay subject). Every change is announced so sessions re-tier.
 */
export class ToolsetEndpoints {
  /**
   * Toolsets the operator declared (config catalogs, config MCP servers), per tenant. Every replica
   * runs the same config, so each knows the same set; a tenant's requests cannot replace them.
   */
  readonly #operatorOwned = new Map<string, Set<string>>();
  /** The encoded size of each toolset at the revision it was measured (`tenant/id` → size). */
  readonly #sizes = new Map<string, { revision: number; bytes: number }>();

  constructor(
    private readonly deps: {
      registry: ToolsetRegistry;
      fanout: TierFanout;
      mcp: McpPool;
      executors: Executors;
      /** Commands tenants may start as stdio MCP servers (`mcp.allowedCommands`). */
      allowedCommands: readonly string[];
      /** Where tenants' HTTP MCP servers may be (`mcp.outbound`, `tenants.<id>.mcpOutbound`). */
      outbound: TenantGuards;
      log: Logger;
      /** The deployment's queue group, for the relay subscription of attached MCP servers. */
      queue: string;
      /** The tenant's quotas on toolsets, tools, bytes and MCP servers. */
      quotas?: QuotaGate;
      /** Who owns each tenant-attached server's connection (see mcp-lease.ts). */
      leases?: {
        claim(tenant: string, config: McpServerConfig): Promise<void>;
        forget(tenant: string, name: string): Promise<boolean>;
      };
    },
  ) {}

  /** What the tenant's own toolsets (not the operator's) hold, for its quotas. */
  usage(tenant: string): { toolsets: number; tools: number; bytes: number; mcpServers: number } {
    const owned = this.#operatorOwned.get(tenant);
    const usage = { toolsets: 0, tools: 0, bytes: 0, mcpServers: 0 };
    for (const [id, { toolset, revision }] of this.deps.registry.toolsets(tenant)) {
      if (owned?.has(id) === true) continue;
      usage.toolsets += 1;
      usage.tools += toolset.tools.length;
      usage.bytes += this.#size(tenant, toolset, revision);
      if (toolset.kind === 'mcp') usage.mcpServers += 1;
    }
    return usage;
  }

  #size(tenant: string, toolset: Toolset, revision: number): number {
    const key = `${tenant}/${toolset.id}`;
    const known = this.#sizes.get(key);
    if (known?.revision === revision) return known.bytes;
    const bytes = Buffer.byteLength(JSON.stringify(toolset));
    this.#sizes.set(key, { revision, bytes });
    return bytes;
  }

  /** QUOTA_EXCEEDED when `toolset` would take the tenant past one of its quotas. */
  #admit(tenant: string, toolset: { id: string; tools: number; bytes: number; mcp: boolean }): void {
    if (this.deps.quotas === undefined) return;
    const held = this.deps.registry.toolsets(tenant).get(toolset.id);
    const replaced =
      held === undefined
        ? undefined
        : { tools: held.toolset.tools.length, bytes: this.#size(tenant, held.toolset, held.revision) };
    this.deps.quotas.admitToolset(tenant, toolset, replaced);
  }

  /** Marks toolset ids as the operator's before they are registered (the config's, at start). */
  reserve(tenant: string, ids: readonly string[]): void {
    for (const id of ids) this.#own(tenant, id);
  }

  #own(tenant: string, id: string): void {
    let owned = this.#operatorOwned.get(tenant);
    if (owned === undefined) this.#operatorOwned.set(tenant, (owned = new Set()));
    owned.add(id);
  }

  /** FORBIDDEN when the toolset is the operator's: a tenant's own toolsets are the only ones it changes. */
  #refuseOperatorOwned(tenant: string, id: string, verb: string): void {
    if (this.#operatorOwned.get(tenant)?.has(id) === true)
      throw new RequestError(
        WIRE_ERROR_CODES.FORBIDDEN,
        `toolset '${id}' is declared by the operator (the daemon's config); a tenant cannot ${verb} it. Use another id for the tenant's own toolset.`,
      );
  }

  async put(tenant: string, body: unknown) {
    const { toolset } = parse(ToolsetPutRequestSchema, body);
    const parsed = ToolsetSchema.parse(toolset);
    this.#refuseOperatorOwned(tenant, parsed.id, 'replace');
    this.#admit(tenant, {
      id: parsed.id,
      tools: parsed.tools.length,
      bytes: Buffer.byteLength(JSON.stringify(parsed)),
      mcp: parsed.kind === 'mcp',
    });
    const revision = await this.deps.registry.put(tenant, parsed);
    this.deps.fanout.publishToolsetChanged(tenant, parsed.id, revision, false);
    return { ok: true as const, id: parsed.id, revision };
  }

  async delete(tenant: string, body: unknown) {
    const { id } = parse(ToolsetDeleteRequestSchema, body);
    this.#refuseOperatorOwned(tenant, id, 'delete');
    const deleted = await this.deps.registry.delete(tenant, id);
    this.deps.fanout.publishToolsetChanged(tenant, id, this.deps.registry.lastRevision, true);
    return { ok: true as const, id, deleted };
  }

  /**
   * `mcp.attach` from a tenant: stdio servers only for commands the operator allowed, HTTP servers
   * only where the outbound policy allows (checked before any connection, and again on each). The
   * attachment is stored and this replica owns its connection through a lease, so another replica
   * takes it over when this one dies.
   */
  async attach(tenant: string, body: unknown) {
    const request = parse(McpAttachRequestSchema, body);
    this.#checkCommand(request);
    this.#refuseOperatorOwned(tenant, `mcp-${request.name}`, 'replace');
    this.#admit(tenant, { id: `mcp-${request.name}`, tools: 0, bytes: 0, mcp: true });
    const { toolset, tools } = await this.#checkedAttach(tenant, request);
    await this.deps.leases?.claim(tenant, request);
    const revision = this.deps.registry.toolsets(tenant).get(toolset)?.revision ?? this.deps.registry.lastRevision;
    return { ok: true as const, toolset, tools, revision };
  }

  /**
   * Connects a tenant's stored attachment whose owner is gone, through exactly the checks of
   * `mcp.attach` (allowed commands, outbound policy): a takeover is no way around them.
   */
  async takeOver(tenant: string, config: McpServerConfig): Promise<void> {
    await this.#checkedAttach(tenant, config);
  }

  async #checkedAttach(tenant: string, request: McpServerConfig): Promise<{ toolset: string; tools: number }> {
    this.#checkCommand(request);
    const outbound =
      request.transport.type === 'http' ? await this.#outbound(tenant, request.name, request.transport.url) : undefined;
    try {
      return await this.#attach(tenant, request, outbound);
    } catch (error) {
      if (outbound === undefined || !(error instanceof McpUnreachableError)) throw error;
      this.deps.log.info({ tenant, server: request.name, err: error.message }, 'tenant MCP server not attached');
      throw new McpUnreachableError(unreachableMessage(request.name), { cause: error });
    }
  }

  #checkCommand(request: McpServerConfig): void {
    if (request.transport.type === 'stdio' && !this.deps.allowedCommands.includes(request.transport.command)) {
      throw new RequestError(
        WIRE_ERROR_CODES.FORBIDDEN,
        `stdio MCP servers can only run commands the operator allowed (mcp.allowedCommands); '${request.transport.command}' is not one of them.`,
      );
    }
  }

  /** `mcp.detach`, on whichever replica: the owner (this one or another, told by the lease) lets its connection go. */
  async detach(tenant: string, body: unknown) {
    const { name } = parse(McpDetachRequestSchema, body);
    this.#refuseOperatorOwned(tenant, `mcp-${name}`, 'detach');
    const stored = (await this.deps.leases?.forget(tenant, name)) ?? false;
    const local = await this.deps.mcp.detach(tenant, name);
    this.deps.executors.stopServingMcp(tenant, name);
    if (stored && !local) {
      // Held by another replica: the toolset goes here, the connection there.
      await this.deps.registry.delete(tenant, `mcp-${name}`);
      this.deps.fanout.publishToolsetChanged(tenant, `mcp-${name}`, this.deps.registry.lastRevision, true);
    }
    return { ok: true as const, toolset: `mcp-${name}`, detached: stored || local };
  }

  /** Connects an MCP server for a tenant on the operator's behalf (no command check; the tenant cannot replace it). */
  async attachServer(tenant: string, server: McpServerConfig): Promise<{ toolset: string; tools: number }> {
    this.#own(tenant, `mcp-${server.name}`);
    return this.#attach(tenant, server);
  }

  /**
   * The policy-checked fetch for a tenant's HTTP server. A refused URL is FORBIDDEN before anything
   * is sent; a host that cannot be resolved gives the same MCP_UNREACHABLE as any failed connection.
   */
  async #outbound(tenant: string, name: string, url: string): Promise<OutboundFetch> {
    const guard = this.deps.outbound.guardFor(tenant);
    try {
      await guard.resolve(new URL(url));
    } catch (error) {
      if (!(error instanceof OutboundRefusedError))
        throw new McpUnreachableError(unreachableMessage(name), { cause: error });
      // The URL is the tenant's and may hold a secret: only the rule and the kind are logged.
      this.deps.log.info(
        { tenant, server: name, rule: error.refusal.rule, kind: error.kind },
        'mcp.attach refused by the outbound policy',
      );
      throw new RequestError(WIRE_ERROR_CODES.FORBIDDEN, `MCP server '${name}': ${error.message}`);
    }
    return guardedFetch(guard);
  }

  async #attach(
    tenant: string,
    server: McpServerConfig,
    outbound?: OutboundFetch,
  ): Promise<{ toolset: string; tools: number }> {
    const attached = await this.deps.mcp.attach(tenant, server, outbound ? { outbound } : {});
    this.deps.executors.serveMcp(tenant, server.name, this.deps.queue);
    return attached;
  }

  /** Registers toolsets directly (config-declared catalogs at start). */
  async register(tenant: string, toolsets: readonly Toolset[]): Promise<void> {
    for (const toolset of toolsets) {
      this.#own(tenant, toolset.id);
      const revision = await this.deps.registry.put(tenant, toolset);
      this.deps.fanout.publishToolsetChanged(tenant, toolset.id, revision, false);
    }
  }
}
