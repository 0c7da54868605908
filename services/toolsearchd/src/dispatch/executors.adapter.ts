import { JSONCodec, type NatsConnection, type Subscription } from 'nats';
import type { Logger } from 'pino';
import type { SessionTool } from '@toolsearch/catalog';
import { CALL_ERROR_CODES, EXEC, ExecReplySchema, ExecRequestSchema, subject, type ExecReply } from '@toolsearch/proto';
import type { McpPool } from '../mcp-pool.adapter';

const codec = JSONCodec<unknown>();

/** What running a tool gave: data, or an error with a stable code (plus the tool's data, if any). */
export type ExecOutcome =
  | { readonly ok: true; readonly data: unknown }
  | { readonly ok: false; readonly error: { code: string; message: string }; readonly data?: unknown };

export interface ExecTarget {
  readonly tenant: string;
  readonly session: string;
  readonly callId: string;
  readonly tool: SessionTool;
  readonly arguments: Record<string, unknown>;
  readonly timeoutMs: number;
  readonly approvalId?: string;
}

/**
 * Where replicas ask each other to run an MCP server's tool: outside every tenant's subjects, so
 * no tenant user (whose NATS permissions are all under `toolsearch.v1.<tenant>.`) can listen in,
 * answer in a replica's place, or send it requests.
 */
const RELAY_TEMPLATE = 'toolsearch.internal.relay.{tenant}.{toolset}';

/** The server name of an MCP toolset id (`mcp-<name>`). */
function mcpServerOf(tool: SessionTool): string | undefined {
  return tool.kind === 'mcp' && tool.toolset.startsWith('mcp-') ? tool.toolset.slice(4) : undefined;
}

/**
 * Runs real tools. MCP tools go straight to this replica's connection when it holds one, and
 * otherwise over a daemon-only relay subject to the replica that does; plugin and core tools go over
 * `exec.<toolset>` to whoever serves that toolset (a gateway, a plugin). Nobody serving gives
 * `NO_EXECUTOR` at once, never a hang.
 */
export class Executors {
  readonly #nc: NatsConnection;
  readonly #mcp: McpPool;
  readonly #log: Logger;
  readonly #served = new Map<string, Subscription>();

  constructor(nc: NatsConnection, mcp: McpPool, log: Logger) {
    this.#nc = nc;
    this.#mcp = mcp;
    this.#log = log;
  }

  async run(target: ExecTarget): Promise<ExecOutcome> {
    const server = mcpServerOf(target.tool);
    if (server !== undefined && this.#mcp.has(target.tenant, server)) {
      return this.#mcp.callTool(target.tenant, server, target.tool.originalName, target.arguments, target.timeoutMs);
    }
    return this.#overNats(target);
  }

  async #overNats(target: ExecTarget): Promise<ExecOutcome> {
    const request = {
      tenant: target.tenant,
      session: target.session,
      call_id: target.callId,
      tool: target.tool.originalName,
      name: target.tool.name,
      arguments: target.arguments,
      timeout_ms: target.timeoutMs,
      ...(target.approvalId !== undefined ? { approval_id: target.approvalId } : {}),
    };
    let raw: unknown;
    try {
      const server = mcpServerOf(target.tool);
      const reply = await this.#nc.request(
        server !== undefined
          ? subject(RELAY_TEMPLATE, { tenant: target.tenant, toolset: server })
          : subject(EXEC.template, { tenant: target.tenant, toolset: target.tool.toolset }),
        codec.encode(request),
        { timeout: target.timeoutMs },
      );
      raw = codec.decode(reply.data);
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === '503') {
        return {
          ok: false,
          error: {
            code: CALL_ERROR_CODES.NO_EXECUTOR,
            message: `Nothing serves toolset '${target.tool.toolset}' right now, so '${target.tool.name}' cannot run.`,
          },
        };
      }
      if (code === 'TIMEOUT') {
        return {
          ok: false,
          error: {
            code: CALL_ERROR_CODES.TIMEOUT,
            message: `'${target.tool.name}' did not finish within ${target.timeoutMs} ms.`,
          },
        };
      }
      return {
        ok: false,
        error: { code: CALL_ERROR_CODES.NO_EXECUTOR, message: `The executor failed: ${String(error)}` },
      };
    }
    const reply = ExecReplySchema.safeParse(raw);
    if (!reply.success) {
      return {
        ok: false,
        error: {
          code: CALL_ERROR_CODES.TOOL_ERROR,
          message: "The executor's reply was not { ok, data } or { ok, error }.",
        },
      };
    }
    return reply.data;
  }

  /**
   * Serves the relay subject of a server this replica is connected to, so every other replica can
   * run its tools. Replicas holding the same server share the work (queue group).
   */
  serveMcp(tenant: string, server: string, queue: string): void {
    const key = `${tenant}\u0000${server}`;
    if (this.#served.has(key)) return;
    const subscription = this.#nc.subscribe(subject(RELAY_TEMPLATE, { tenant, toolset: server }), {
      queue,
      callback: (error, message) => {
        if (error) return;
        void (async () => {
          let reply: ExecReply;
          const parsed = ExecRequestSchema.safeParse(safeDecode(message.data));
          if (!parsed.success || parsed.data.tenant !== tenant) {
            reply = { ok: false, error: { code: 'BAD_REQUEST', message: 'not an exec request for this tenant' } };
          } else {
            reply = await this.#mcp.callTool(
              tenant,
              server,
              parsed.data.tool,
              parsed.data.arguments,
              parsed.data.timeout_ms ?? 30_000,
            );
          }
          message.respond(codec.encode(reply));
        })().catch((failure: Error) => this.#log.warn({ err: failure.message, tenant, server }, 'exec relay failed'));
      },
    });
    this.#served.set(key, subscription);
  }

  stopServingMcp(tenant: string, server: string): void {
    const key = `${tenant}\u0000${server}`;
    this.#served.get(key)?.unsubscribe();
    this.#served.delete(key);
  }
}

function safeDecode(data: Uint8Array): unknown {
  try {
    return codec.decode(data);
  } catch {
    return undefined;
  }
}
