import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import { ToolsetSchema, type Toolset } from '@toolsearch/catalog';
import type { McpAttachRequestSchema } from '@toolsearch/proto';
import type { z } from 'zod';

export type McpServerConfig = z.output<typeof McpAttachRequestSchema>;

/** Where the pool writes the servers' toolsets (the registry, through the daemon). */
export interface ToolsetSink {
  put(tenant: string, toolset: Toolset): Promise<unknown>;
  delete(tenant: string, toolsetId: string): Promise<unknown>;
}

interface Connection {
  readonly tenant: string;
  readonly config: McpServerConfig;
  client: Client | undefined;
  closed: boolean;
  retry: NodeJS.Timeout | undefined;
  attempt: number;
  toolCount: number;
  /** The last tool list seen, shown as unavailable (with its count) while the server is away. */
  lastToolset: Toolset | undefined;
}

const MAX_PAGES = 100;
const BACKOFF_MS = [500, 1000, 2000, 5000, 10_000, 30_000];

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

  constructor(sink: ToolsetSink, log: Logger) {
    this.#sink = sink;
    this.#log = log;
  }

  #key(tenant: string, name: string): string {
    return `${tenant}\u0000${name}`;
  }

  /** Connects (replacing an earlier connection of the same name) and registers the tools. */
  async attach(tenant: string, config: McpServerConfig): Promise<{ toolset: string; tools: number }> {
    await this.detach(tenant, config.name, { keepToolset: true });
    const connection: Connection = {
      tenant,
      config,
      client: undefined,
      closed: false,
      retry: undefined,
      attempt: 0,
      toolCount: 0,
      lastToolset: undefined,
    };
    this.#connections.set(this.#key(tenant, config.name), connection);
    try {
      await this.#connect(connection);
    } catch (error) {
      this.#connections.delete(this.#key(tenant, config.name));
      await connection.client?.close().catch(() => undefined);
      throw new McpUnreachableError(`could not connect to MCP server '${config.name}': ${describe(error)}`);
    }
    return { toolset: mcpToolsetId(config.name), tools: connection.toolCount };
  }

  async #connect(connection: Connection): Promise<void> {
    const { config } = connection;
    const transport =
      config.transport.type === 'stdio'
        ? new StdioClientTransport({
            command: config.transport.command,
            args: config.transport.args,
            ...(config.transport.env ? { env: { ...safeEnv(), ...config.transport.env } } : {}),
            ...(config.transport.cwd ? { cwd: config.transport.cwd } : {}),
            stderr: 'ignore',
          })
        : new StreamableHTTPClientTransport(new URL(config.transport.url), {
            requestInit: { headers: config.transport.headers ?? {} },
          });
    const client = new Client({ name: 'toolsearchd', version: '0.1.0' });
    connection.client = client;
    client.onclose = () => this.#lost(connection, client);
    client.onerror = () => undefined;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      void this.#relist(connection).catch((error: unknown) =>
        this.#log.warn(
          { tenant: connection.tenant, server: config.name, err: describe(error) },
          'could not re-list MCP tools',
        ),
      );
    });
    await client.connect(transport);
    await this.#relist(connection);
    connection.attempt = 0;
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

  #lost(connection: Connection, client: Client): void {
    if (connection.closed || connection.client !== client) return;
    connection.client = undefined;
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
    this.#scheduleRetry(connection);
  }

  #scheduleRetry(connection: Connection): void {
    if (connection.closed) return;
    const delay = BACKOFF_MS[Math.min(connection.attempt, BACKOFF_MS.length - 1)] ?? 30_000;
    connection.attempt += 1;
    connection.retry = setTimeout(() => {
      connection.retry = undefined;
      this.#connect(connection).catch(() => {
        void connection.client?.close().catch(() => undefined);
        connection.client = undefined;
        this.#scheduleRetry(connection);
      });
    }, delay);
    connection.retry.unref();
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
      return { ok: true, data };
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
    connection.closed = true;
    if (connection.retry !== undefined) clearTimeout(connection.retry);
    await connection.client?.close().catch(() => undefined);
    if (!options.keepToolset) await this.#sink.delete(tenant, mcpToolsetId(name));
    return true;
  }

  /** Closes every connection (on shutdown). Toolsets stay registered for the next start. */
  async close(): Promise<void> {
    const all = [...this.#connections.values()];
    this.#connections.clear();
    for (const connection of all) {
      connection.closed = true;
      if (connection.retry !== undefined) clearTimeout(connection.retry);
      await connection.client?.close().catch(() => undefined);
    }
  }
}

export type McpCallOutcome =
  | { readonly ok: true; readonly data: unknown }
  | { readonly ok: false; readonly error: { code: string; message: string }; readonly data?: unknown };

/** The text parts of an MCP result, joined (for error messages). */
function textOf(content: unknown): string {
  if (!Array.isArray(content)) return '';
  return content
    .flatMap((part: unknown) =>
      typeof part === 'object' && part !== null && (part as { type?: unknown }).type === 'text'
        ? [String((part as { text?: unknown }).text ?? '')]
        : [],
    )
    .join('\n')
    .slice(0, 2000);
}

export class McpUnreachableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'McpUnreachableError';
  }
}

/** An error's own message, never the request that caused it (which may hold secrets). */
function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0]?.slice(0, 300) ?? 'unknown error';
}

/** The parts of the daemon's own environment a child server may inherit (no secrets of ours). */
function safeEnv(): Record<string, string> {
  const keep = ['PATH', 'HOME', 'LANG', 'TMPDIR', 'NODE_PATH'];
  return Object.fromEntries(
    keep.flatMap((name) => (process.env[name] !== undefined ? [[name, process.env[name] as string]] : [])),
  );
}

/** An MCP tool as a tool definition (unknown fields dropped, annotations kept). */
function toDefinition(tool: unknown): Record<string, unknown> {
  const value = tool as {
    name?: unknown;
    description?: unknown;
    inputSchema?: unknown;
    outputSchema?: unknown;
    annotations?: unknown;
  };
  return {
    name: String(value.name ?? ''),
    description: typeof value.description === 'string' ? value.description : '',
    ...(typeof value.inputSchema === 'object' && value.inputSchema !== null ? { inputSchema: value.inputSchema } : {}),
    ...(typeof value.outputSchema === 'object' && value.outputSchema !== null
      ? { outputSchema: value.outputSchema }
      : {}),
    ...(typeof value.annotations === 'object' && value.annotations !== null ? { annotations: value.annotations } : {}),
  };
}
