import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import { ToolsetSchema, type Toolset } from '@toolsearch/catalog';
import type { McpAttachRequestSchema } from '@toolsearch/proto';
import type { z } from 'zod';
import { safeEnv, textOf, toDefinition } from './mcp-values';
import { backoffDelay, realTimers, ReconnectConfigSchema, type ReconnectConfig, type Timers } from './mcp-reconnect';
import type { OutboundFetch } from './outbound/guarded-fetch';
import { RelistGate } from './relist-gate';

export type McpServerConfig = z.output<typeof McpAttachRequestSchema>;

/** Where the pool writes the servers' toolsets (the registry, through the daemon). */
export interface ToolsetSink {
  put(tenant: string, toolset: Toolset): Promise<unknown>;
  delete(tenant: string, toolsetId: string): Promise<unknown>;
}

interface Connection {
  readonly tenant: string;
  readonly config: McpServerConfig;
  /** The policy-checked fetch of a tenant's HTTP server (undefined: the operator's, or stdio). */
  readonly outbound: OutboundFetch | undefined;
  /** Set only while connected: `onclose` is installed once `connect` succeeded. */
  client: Client | undefined;
  closed: boolean;
  /** The one pending retry. A second is never scheduled while one waits (issue #20). */
  retry: unknown;
  attempt: number;
  /** Whether the registry shows the server as unavailable: written once per outage, not per attempt. */
  unavailable: boolean;
  toolCount: number;
  /** The last tool list seen, shown as unavailable (with its count) while the server is away. */
  lastToolset: Toolset | undefined;
  /** Re-lists on `tools/list_changed`: one at a time, at most one a second (`RelistGate`). */
  relists: RelistGate | undefined;
}

/** Retry schedule, and the clock it runs on (simulated in tests). */
export interface McpPoolOptions {
  readonly reconnect?: ReconnectConfig;
  readonly timers?: Timers;
  /** Jitter source in [0, 1]. */
  readonly random?: () => number;
  /** The least time between two re-lists of one server (`MIN_RELIST_INTERVAL_MS`). */
  readonly minRelistIntervalMs?: number;
  /**
   * Charges the tenant for a re-list its server asked for (`RELIST_WEIGHT`, as a toolset put):
   * the re-assembly that follows is the tenant's work.
   */
  readonly charge?: (tenant: string, weight: number) => void;
}

/** What a re-list on a server's `tools/list_changed` counts against its tenant's requests per second. */
export const RELIST_WEIGHT = 10;

const MAX_PAGES = 100;

/** The toolset id of an MCP server. */
export function mcpToolsetId(name: string): string {
  return `mcp-${name}`;
}

/**
 * MCP client connections, one per tenant and server (tenants never share one). Attaching connects,
 * lists the tools (every page) into toolset `mcp-<name>`, and follows `tools/list_changed`. A
 * server that goes away is shown as unavailable and reconnected with backoff. Configs may hold
 * secrets (env, headers): they are never logged or put in an error message.
 */
export class McpPool {
  readonly #connections = new Map<string, Connection>();
  readonly #sink: ToolsetSink;
  readonly #log: Logger;
  readonly #reconnect: ReconnectConfig;
  readonly #timers: Timers;
  readonly #random: () => number;
  readonly #minRelistIntervalMs: number | undefined;
  readonly #charge: ((tenant: string, weight: number) => void) | undefined;

  constructor(sink: ToolsetSink, log: Logger, options: McpPoolOptions = {}) {
    this.#sink = sink;
    this.#log = log;
    this.#reconnect = options.reconnect ?? ReconnectConfigSchema.parse(undefined);
    this.#timers = options.timers ?? realTimers;
    this.#random = options.random ?? Math.random;
    this.#minRelistIntervalMs = options.minRelistIntervalMs;
    this.#charge = options.charge;
  }

  #key(tenant: string, name: string): string {
    return `${tenant}\u0000${name}`;
  }

  /**
   * Connects (replacing an earlier connection of the same name) and registers the tools. `outbound`
   * is the fetch a tenant's HTTP server is reached through (checked against the outbound policy);
   * the pool closes it when the connection ends.
   */
  async attach(
    tenant: string,
    config: McpServerConfig,
    options: { outbound?: OutboundFetch } = {},
  ): Promise<{ toolset: string; tools: number }> {
    await this.detach(tenant, config.name, { keepToolset: true });
    const connection: Connection = {
      tenant,
      config,
      outbound: options.outbound,
      client: undefined,
      closed: false,
      retry: undefined,
      attempt: 0,
      unavailable: false,
      toolCount: 0,
      lastToolset: undefined,
      relists: undefined,
    };
    connection.relists = new RelistGate(
      () => {
        this.#charge?.(tenant, RELIST_WEIGHT);
        return this.#relist(connection).catch((error: unknown) =>
          this.#log.warn({ tenant, server: config.name, err: describe(error) }, 'could not re-list MCP tools'),
        );
      },
      {
        timers: this.#timers,
        ...(this.#minRelistIntervalMs !== undefined ? { minIntervalMs: this.#minRelistIntervalMs } : {}),
      },
    );
    const key = this.#key(tenant, config.name);
    this.#connections.set(key, connection);
    try {
      await this.#connect(connection);
    } catch (error) {
      if (this.#connections.get(key) === connection) this.#connections.delete(key);
      await this.#end(connection);
      throw new McpUnreachableError(`could not connect to MCP server '${config.name}': ${describe(error)}`, {
        cause: error,
      });
    }
    return { toolset: mcpToolsetId(config.name), tools: connection.toolCount };
  }

  #transport(connection: Connection): StdioClientTransport | StreamableHTTPClientTransport {
    const { transport } = connection.config;
    if (transport.type === 'stdio') {
      return new StdioClientTransport({
        command: transport.command,
        args: transport.args,
        ...(transport.env ? { env: { ...safeEnv(), ...transport.env } } : {}),
        ...(transport.cwd ? { cwd: transport.cwd } : {}),
        stderr: 'ignore',
      });
    }
    return new StreamableHTTPClientTransport(new URL(transport.url), {
      requestInit: { headers: transport.headers ?? {} },
      ...(connection.outbound ? { fetch: connection.outbound.fetch } : {}),
    });
  }

  /**
   * One connection attempt. The client becomes the connection's (and its `onclose` a loss) only
   * once connected; a failed attempt closes its client without that handler, so a failure is
   * reported once — by the rejection — and never also as a loss (which scheduled a second retry
   * per failure, issue #20).
   */
  async #connect(connection: Connection): Promise<void> {
    const client = new Client({ name: 'toolsearchd', version: '0.1.0' });
    client.onerror = () => undefined;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      if (connection.client === client) connection.relists?.notify();
    });
    try {
      await client.connect(this.#transport(connection));
      if (connection.closed) {
        await client.close().catch(() => undefined);
        return;
      }
      connection.client = client;
      client.onclose = () => this.#lost(connection, client);
      await this.#relist(connection);
    } catch (error) {
      client.onclose = undefined;
      if (connection.client === client) connection.client = undefined;
      await client.close().catch(() => undefined);
      throw error;
    }
    connection.attempt = 0;
    connection.unavailable = false;
  }

  /** Lists every page of the server's tools and writes them to the registry. */
  async #relist(connection: Connection): Promise<void> {
    const client = connection.client;
    if (client === undefined || connection.closed) return;
    const tools: unknown[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page += 1) {
      const result = await client.listTools(cursor === undefined ? {} : { cursor });
      tools.push(...result.tools);
      cursor = result.nextCursor;
      if (cursor === undefined) break;
    }
    const { config } = connection;
    const toolset = ToolsetSchema.parse({
      id: mcpToolsetId(config.name),
      kind: 'mcp',
      label: config.name,
      supports_parallel_tool_calls: config.supports_parallel_tool_calls,
      ...(config.risk !== undefined ? { risk: config.risk } : {}),
      tools: tools.map((tool) => toDefinition(tool)),
    });
    connection.toolCount = toolset.tools.length;
    connection.lastToolset = toolset;
    if (!connection.closed) await this.#sink.put(connection.tenant, toolset);
  }

  /** A connected server went away: shown as unavailable (once per outage) and retried. */
  #lost(connection: Connection, client: Client): void {
    if (connection.closed || connection.client !== client) return;
    connection.client = undefined;
    if (!connection.unavailable) {
      connection.unavailable = true;
      this.#log.warn(
        { tenant: connection.tenant, server: connection.config.name },
        'MCP server disconnected; reconnecting',
      );
      const unavailable = ToolsetSchema.parse({
        ...(connection.lastToolset ?? {
          id: mcpToolsetId(connection.config.name),
          kind: 'mcp',
          label: connection.config.name,
          tools: [],
        }),
        unavailable: 'the server disconnected; reconnecting',
      });
      void this.#sink.put(connection.tenant, unavailable).catch(() => undefined);
    }
    this.#scheduleRetry(connection);
  }

  /** Schedules the next attempt unless one is already pending: one retry schedule per server. */
  #scheduleRetry(connection: Connection): void {
    if (connection.closed || connection.retry !== undefined) return;
    const delay = backoffDelay(connection.attempt, this.#reconnect, this.#random);
    connection.attempt += 1;
    connection.retry = this.#timers.setTimeout(() => {
      connection.retry = undefined;
      void this.#retry(connection);
    }, delay);
  }

  async #retry(connection: Connection): Promise<void> {
    if (connection.closed) return;
    const attempt = connection.attempt;
    try {
      await this.#connect(connection);
      if (!connection.closed)
        this.#log.info(
          { tenant: connection.tenant, server: connection.config.name, attempt },
          'MCP server reconnected',
        );
    } catch (error) {
      if (connection.closed) return;
      this.#log.debug(
        { tenant: connection.tenant, server: connection.config.name, attempt, err: describe(error) },
        'MCP reconnect attempt failed',
      );
      this.#scheduleRetry(connection);
    }
  }

  /** Every server this replica holds, and whether it is connected right now (for health and metrics). */
  servers(): { tenant: string; server: string; connected: boolean }[] {
    return [...this.#connections.values()].map((connection) => ({
      tenant: connection.tenant,
      server: connection.config.name,
      connected: connection.client !== undefined,
    }));
  }

  /** Whether this replica holds a connection (up or reconnecting) to the tenant's server. */
  has(tenant: string, name: string): boolean {
    return this.#connections.has(this.#key(tenant, name));
  }

  /**
   * Runs one tool on the tenant's server. A tool that reports `isError` gives `TOOL_ERROR` with
   * its text; a server that is not connected right now gives `NO_EXECUTOR`; no answer in time
   * gives `TIMEOUT`.
   */
  async callTool(
    tenant: string,
    name: string,
    tool: string,
    args: Record<string, unknown>,
    timeoutMs: number,
  ): Promise<McpCallOutcome> {
    const client = this.#connections.get(this.#key(tenant, name))?.client;
    if (client === undefined) {
      return { ok: false, error: { code: 'NO_EXECUTOR', message: `MCP server '${name}' is not connected right now.` } };
    }
    try {
      const result = await client.callTool({ name: tool, arguments: args }, undefined, {
        timeout: timeoutMs,
        resetTimeoutOnProgress: false,
      });
      const data = {
        content: result.content,
        ...(result.structuredContent !== undefined ? { structuredContent: result.structuredContent } : {}),
      };
      if (result.isError === true) {
        return { ok: false, error: { code: 'TOOL_ERROR', message: textOf(result.content) || 'the tool failed' }, data };
      }
      return { ok: true as const, data };
    } catch (error) {
      const message = describe(error);
      const timedOut = /timed out|timeout/i.test(message);
      return {
        ok: false,
        error: timedOut
          ? { code: 'TIMEOUT', message: `MCP server '${name}' did not answer within ${timeoutMs} ms.` }
          : { code: 'NO_EXECUTOR', message: `MCP server '${name}' failed the call: ${message}` },
      };
    }
  }

  /** Disconnects a server; its toolset is removed unless `keepToolset`. */
  async detach(tenant: string, name: string, options: { keepToolset?: boolean } = {}): Promise<boolean> {
    const connection = this.#connections.get(this.#key(tenant, name));
    if (connection === undefined) return false;
    this.#connections.delete(this.#key(tenant, name));
    await this.#end(connection);
    if (!options.keepToolset) await this.#sink.delete(tenant, mcpToolsetId(name));
    return true;
  }

  /** Closes every connection (on shutdown). Toolsets stay registered for the next start. */
  async close(): Promise<void> {
    const all = [...this.#connections.values()];
    this.#connections.clear();
    for (const connection of all) await this.#end(connection);
  }

  /** Stops a connection for good: no retry runs after this, its client and outbound fetch close. */
  async #end(connection: Connection): Promise<void> {
    connection.closed = true;
    connection.relists?.stop();
    if (connection.retry !== undefined) this.#timers.clearTimeout(connection.retry);
    connection.retry = undefined;
    const client = connection.client;
    connection.client = undefined;
    await client?.close().catch(() => undefined);
    connection.outbound?.close();
  }
}

export type McpCallOutcome =
  | { readonly ok: true; readonly data: unknown }
  | { readonly ok: false; readonly error: { code: string; message: string }; readonly data?: unknown };

export class McpUnreachableError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'McpUnreachableError';
  }
}

/** An error's own message, never the request that caused it (which may hold secrets). */
function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0]?.slice(0, 300) ?? 'unknown error';
}
