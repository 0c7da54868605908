import { randomUUID, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  isInitializeRequest,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { NatsConnection, Subscription } from 'nats';
import type { Logger } from 'pino';
import { EVENTS, subject, type CallEnvelope } from '@toolsearch/proto';
import { tokenDigest } from '../session-store.adapter';

/** Who an MCP connection acts as. */
export interface FrontDoorIdentity {
  readonly tenant: string;
  readonly session: string;
  /** The session was opened for this connection (tenant API key) and is closed with it. */
  readonly owned: boolean;
}

/** What the front door needs from the daemon; every call is scoped to one tenant's session. */
export interface FrontDoorBackend {
  /** A session token (`tst_…`) or a tenant API key → the session to act as, or undefined. */
  authenticate(bearer: string): Promise<FrontDoorIdentity | undefined>;
  /** The session's assembled surface in MCP form (tools the daemon can run, plus the bridge). */
  listTools(identity: FrontDoorIdentity): Promise<Tool[]>;
  /** One call through the dispatcher: policy, approvals, audit. */
  callTool(identity: FrontDoorIdentity, name: string, args: unknown): Promise<CallEnvelope>;
  /** The connection ended: close a session opened for it. */
  release(identity: FrontDoorIdentity): Promise<void>;
}

interface Connection {
  readonly identity: FrontDoorIdentity;
  /** sha256 of the bearer that opened it; every later request must present the same one. */
  readonly credential: string;
  readonly transport: StreamableHTTPServerTransport;
  readonly server: Server;
  readonly subscription: Subscription;
  /** When it last received a request (ms). */
  lastSeen: number;
}

/** JSON-RPC error codes of HTTP-level refusals (the spec leaves -32000…-32099 to servers). */
const UNAUTHORIZED = -32001;
const NO_SESSION = -32002;
const MAX_CONNECTIONS = 10_000;

/**
 * The MCP endpoint (`/mcp`, Streamable HTTP). Each MCP session acts as one toolsearch session:
 * `tools/list` is that session's assembled surface, `tools/call` goes through the same dispatcher
 * as NATS dispatch, and a change of the session's surface (its tier event, published once per
 * real change by whichever replica saw it) becomes `notifications/tools/list_changed`. The
 * low-level SDK `Server` is used because tools carry arbitrary JSON Schemas.
 */
export class McpFrontDoor {
  readonly #connections = new Map<string, Connection>();
  readonly #backend: FrontDoorBackend;
  readonly #nc: NatsConnection;
  readonly #log: Logger;
  readonly #maxBodyBytes: number;
  readonly #observe: (method: string, outcome: string) => void;
  readonly #sweep: NodeJS.Timeout;

  constructor(options: {
    backend: FrontDoorBackend;
    nc: NatsConnection;
    log: Logger;
    maxBodyBytes: number;
    /** End MCP sessions without a request for this long. */
    idleMs: number;
    observe?: (method: string, outcome: string) => void;
  }) {
    this.#backend = options.backend;
    this.#nc = options.nc;
    this.#log = options.log;
    this.#maxBodyBytes = options.maxBodyBytes;
    this.#observe = options.observe ?? (() => undefined);
    const idleMs = options.idleMs;
    this.#sweep = setInterval(
      () => {
        const cutoff = Date.now() - idleMs;
        for (const [id, connection] of this.#connections)
          if (connection.lastSeen < cutoff) {
            this.#log.debug({ tenant: connection.identity.tenant }, 'ending an idle MCP session');
            void this.#drop(id);
          }
      },
      Math.min(Math.max(idleMs / 4, 250), 60_000),
    );
    this.#sweep.unref();
  }

  /** MCP sessions open on this replica. */
  get size(): number {
    return this.#connections.size;
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
    if (bearer === undefined) {
      return refuse(
        res,
        401,
        UNAUTHORIZED,
        'send "Authorization: Bearer <token>": a session token from sessions.open or a tenant API key.',
      );
    }
    let body: unknown;
    if (req.method === 'POST') {
      const read = await readJson(req, this.#maxBodyBytes);
      if (!read.ok) return refuse(res, read.status, ErrorCode.ParseError, read.message);
      body = read.value;
    }
    const credential = tokenDigest(bearer);
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const connection = this.#connections.get(sessionId);
      if (connection === undefined) {
        return refuse(res, 404, NO_SESSION, 'this MCP session is unknown or has ended; initialize a new one.');
      }
      if (!sameDigest(connection.credential, credential)) {
        return refuse(res, 403, UNAUTHORIZED, 'this token does not belong to this MCP session.');
      }
      connection.lastSeen = Date.now();
      await connection.transport.handleRequest(req, res, body);
      return;
    }
    if (req.method !== 'POST' || !isInitializeRequest(body)) {
      return refuse(res, 400, NO_SESSION, 'no MCP session: send an initialize request first (without Mcp-Session-Id).');
    }
    if (this.#connections.size >= MAX_CONNECTIONS) {
      return refuse(res, 503, ErrorCode.InternalError, 'too many MCP sessions on this replica; retry on another.');
    }
    const identity = await this.#backend.authenticate(bearer);
    if (identity === undefined) {
      this.#observe('initialize', 'unauthorized');
      return refuse(res, 401, UNAUTHORIZED, 'the token is not valid: unknown, or its session was closed.');
    }
    const transport = this.#open(identity, credential);
    await transport.handleRequest(req, res, body);
  }

  #open(identity: FrontDoorIdentity, credential: string): StreamableHTTPServerTransport {
    const server = new Server(
      { name: 'toolsearch', version: '0.1.0' },
      {
        capabilities: { tools: { listChanged: true } },
        instructions:
          'Tools beyond those listed are reachable through tool_search (find), tool_describe (read a schema) and tool_call (run).',
      },
    );
    server.setRequestHandler(ListToolsRequestSchema, async () => {
      try {
        const tools = await this.#backend.listTools(identity);
        this.#observe('tools/list', 'ok');
        return { tools };
      } catch (error) {
        this.#observe('tools/list', 'error');
        throw new McpError(ErrorCode.InvalidRequest, (error as Error).message);
      }
    });
    server.setRequestHandler(CallToolRequestSchema, async (request) => {
      const envelope = await this.#backend.callTool(identity, request.params.name, request.params.arguments ?? {});
      this.#observe(
        'tools/call',
        envelope.status === 'pending_approval'
          ? 'pending_approval'
          : envelope.ok
            ? 'ok'
            : (envelope.error?.code ?? 'error'),
      );
      return toCallToolResult(envelope, request.params.name);
    });
    const subscription = this.#nc.subscribe(
      subject(EVENTS.sessionTier.template, { tenant: identity.tenant, session: identity.session }),
      {
        callback: (error) => {
          if (error) return;
          server.sendToolListChanged().catch(() => undefined);
        },
      },
    );
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        this.#connections.set(id, { identity, credential, transport, server, subscription, lastSeen: Date.now() });
        this.#observe('initialize', 'ok');
      },
      onsessionclosed: (id) => this.#drop(id),
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) void this.#drop(transport.sessionId);
      else subscription.unsubscribe();
    };
    void server
      .connect(transport)
      .catch((error: Error) => this.#log.warn({ err: error.message }, 'MCP connect failed'));
    return transport;
  }

  async #drop(id: string): Promise<void> {
    const connection = this.#connections.get(id);
    if (connection === undefined) return;
    this.#connections.delete(id);
    connection.subscription.unsubscribe();
    await connection.server.close().catch(() => undefined);
    if (connection.identity.owned)
      await this.#backend
        .release(connection.identity)
        .catch((error: Error) => this.#log.warn({ err: error.message }, 'could not close an API-key session'));
  }

  /** Ends every MCP session (on shutdown). */
  async close(): Promise<void> {
    clearInterval(this.#sweep);
    for (const id of [...this.#connections.keys()]) await this.#drop(id);
  }
}

/**
 * One dispatch envelope as an MCP tool result. A `tool_call` of one tool answers as that tool
 * would; a held call says so, with its approval id (also in `_meta`, for clients that act on it).
 */
export function toCallToolResult(envelope: CallEnvelope, called: string): CallToolResult {
  // Only tool_call wraps its entries' envelopes in data.results (tool_search has a results field of its own).
  const nested =
    called === 'tool_call' ? (envelope.data as { results?: unknown } | null | undefined)?.results : undefined;
  if (Array.isArray(nested) && nested.length === 1) return toCallToolResult(nested[0] as CallEnvelope, '');
  if (envelope.status === 'pending_approval') {
    const ids =
      envelope.approval_id !== undefined
        ? [envelope.approval_id]
        : (Array.isArray(nested) ? (nested as CallEnvelope[]) : [])
            .map((entry) => entry.approval_id)
            .filter((id): id is string => id !== undefined);
    const what = ids.length === 1 ? 'This call is' : 'Some of these calls are';
    return {
      content: [
        {
          type: 'text',
          text: `${what} waiting for a person to approve (approval id ${ids.join(', ')}) and has not run. Do not repeat it; tell the user it needs approval, or go on without it.`,
        },
        ...(Array.isArray(nested) ? [{ type: 'text' as const, text: JSON.stringify({ results: nested }) }] : []),
      ],
      _meta: {
        'toolsearch/status': 'pending_approval',
        ...(ids.length === 1 ? { 'toolsearch/approval_id': ids[0] } : { 'toolsearch/approval_ids': ids }),
      },
    };
  }
  const data = envelope.data as { content?: unknown; structuredContent?: unknown } | null | undefined;
  const mcpShaped = data !== null && typeof data === 'object' && Array.isArray(data.content);
  if (!envelope.ok) {
    const code = envelope.error?.code ?? 'TOOL_ERROR';
    return {
      isError: true,
      content: [
        { type: 'text', text: `${code}: ${envelope.error?.message ?? 'the call failed'}` },
        ...(mcpShaped ? (data.content as CallToolResult['content']) : []),
        ...(Array.isArray(nested) ? [{ type: 'text' as const, text: JSON.stringify({ results: nested }) }] : []),
      ],
      _meta: { 'toolsearch/error_code': code },
    };
  }
  if (mcpShaped) {
    return {
      content: data.content as CallToolResult['content'],
      ...(data.structuredContent !== undefined
        ? { structuredContent: data.structuredContent as Record<string, unknown> }
        : {}),
    };
  }
  return { content: [{ type: 'text', text: typeof data === 'string' ? data : JSON.stringify(data ?? null) }] };
}

function sameDigest(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

function refuse(res: ServerResponse, status: number, code: number, message: string): void {
  if (res.headersSent) return;
  res.writeHead(status, {
    'content-type': 'application/json',
    ...(status === 401 ? { 'www-authenticate': 'Bearer realm="toolsearch"' } : {}),
  });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

async function readJson(
  req: IncomingMessage,
  maxBytes: number,
): Promise<{ ok: true; value: unknown } | { ok: false; status: number; message: string }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) return { ok: false, status: 413, message: `the request body is over ${maxBytes} bytes.` };
    chunks.push(chunk);
  }
  try {
    return { ok: true, value: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown };
  } catch {
    return { ok: false, status: 400, message: 'the request body is not valid JSON.' };
  }
}
