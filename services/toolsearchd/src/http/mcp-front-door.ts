import { randomUUID, timingSafeEqual } from 'node:crypto';
import type { HeldCallFollow } from './held-calls';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { NatsConnection, Subscription } from 'nats';
import type { Logger } from 'pino';
import { EVENTS, subject, WIRE_ERROR_CODES, type CallEnvelope } from '@toolsearch/proto';
import { tokenDigest } from '../session-store.adapter';
import { RequestError } from '../serve-request';
import { EDGE_ERROR_CODES, refuse, RPC_CODES, type Refusal } from './edge-refusal';
import type { HttpConfig } from './http-config';
import { isRefusal, McpSessionQuotas, type McpSessionSlot } from './mcp-session-quotas';
import { sessionServer } from './mcp-session-server';
import { readJsonBody } from './request-body';

export { toCallToolResult } from './call-result';

/** Who an MCP connection acts as. */
export interface FrontDoorIdentity {
  readonly tenant: string;
  readonly session: string;
  /** The session was opened for this connection (tenant API key) and is closed with it. */
  readonly owned: boolean;
}

/** Who a bearer proves to be, found from the bearer alone: nothing is opened yet. */
export type FrontDoorPrincipal =
  | { readonly kind: 'session'; readonly tenant: string; readonly session: string }
  | { readonly kind: 'apiKey'; readonly tenant: string; readonly digest: string };

/** What the front door needs from the daemon; every call is scoped to one tenant's session. */
export interface FrontDoorBackend {
  /** A session token (`tst_…`) or a tenant API key → who it is, or undefined. Opens nothing. */
  identify(bearer: string): Promise<FrontDoorPrincipal | undefined>;
  /** The session a new MCP session acts as: the token's own, or one opened for an API key. */
  attach(principal: FrontDoorPrincipal): Promise<FrontDoorIdentity>;
  /** The session's assembled surface in MCP form (tools the daemon can run, plus the bridge). */
  listTools(identity: FrontDoorIdentity): Promise<Tool[]>;
  /**
   * One call through the dispatcher: policy, approvals, audit. A call held for a person is
   * followed on the open request when `follow` is given (see held-calls.ts).
   */
  callTool(identity: FrontDoorIdentity, name: string, args: unknown, follow?: HeldCallFollow): Promise<CallEnvelope>;
  /** The connection ended: close a session opened for it. */
  release(identity: FrontDoorIdentity): Promise<void>;
}

/** The `http` limits the front door enforces itself. */
export type FrontDoorLimits = Pick<
  HttpConfig,
  | 'mcpIdleMs'
  | 'mcpAbandonedMs'
  | 'bodyIdleTimeoutMs'
  | 'maxMcpSessions'
  | 'maxMcpSessionsPerTenant'
  | 'maxMcpSessionsPerCredential'
>;

interface Connection {
  readonly identity: FrontDoorIdentity;
  /** sha256 of the bearer that opened it; every later request must present the same one. */
  readonly credential: string;
  readonly transport: StreamableHTTPServerTransport;
  readonly server: Server;
  readonly subscription: Subscription;
  readonly slot: McpSessionSlot;
  /** When it last received a request or closed a stream (ms). */
  lastSeen: number;
  /** HTTP responses open for it: the GET event stream, requests in flight. 0: its client may be gone. */
  streams: number;
}

/**
 * The MCP endpoint (`/mcp`, Streamable HTTP). Each MCP session acts as one toolsearch session:
 * `tools/list` is that session's assembled surface, `tools/call` goes through the same dispatcher
 * as NATS dispatch, and a change of the session's surface (its tier event, published once per
 * real change by whichever replica saw it) becomes `notifications/tools/list_changed` (the
 * server itself: `sessionServer`).
 *
 * Every request is judged on its headers before its body is read: the bearer (401), the MCP
 * session it names (404, 403), the session caps (429); only then is the body read, within
 * `limits.maxPayloadBytes` and `http.bodyIdleTimeoutMs`.
 */
export class McpFrontDoor {
  readonly #connections = new Map<string, Connection>();
  readonly #backend: FrontDoorBackend;
  readonly #nc: NatsConnection;
  readonly #log: Logger;
  readonly #maxBodyBytes: number;
  readonly #maxJsonDepth: number;
  readonly #limits: FrontDoorLimits;
  readonly #quotas: McpSessionQuotas;
  readonly #observe: (method: string, outcome: string) => void;
  readonly #sweep: NodeJS.Timeout;

  constructor(options: {
    backend: FrontDoorBackend;
    nc: NatsConnection;
    log: Logger;
    maxBodyBytes: number;
    /** Deepest nesting a JSON body may have (`limits.maxJsonDepth`). */
    maxJsonDepth?: number;
    limits: FrontDoorLimits;
    observe?: (method: string, outcome: string) => void;
  }) {
    this.#backend = options.backend;
    this.#nc = options.nc;
    this.#log = options.log;
    this.#maxBodyBytes = options.maxBodyBytes;
    this.#maxJsonDepth = options.maxJsonDepth ?? 64;
    this.#limits = options.limits;
    this.#quotas = new McpSessionQuotas(options.limits);
    this.#observe = options.observe ?? (() => undefined);
    const shortest = Math.min(options.limits.mcpIdleMs, options.limits.mcpAbandonedMs);
    this.#sweep = setInterval(() => this.#endQuietSessions(), Math.min(Math.max(shortest / 4, 250), 60_000));
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
        req,
        res,
        unauthenticated(
          'send "Authorization: Bearer <token>": a session token from sessions.open or a tenant API key.',
        ),
      );
    }
    const credential = tokenDigest(bearer);
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') return this.#continue(sessionId, credential, req, res);
    return this.#initialize(bearer, credential, req, res);
  }

  /** A request on an open MCP session. */
  async #continue(id: string, credential: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const connection = this.#connections.get(id);
    if (connection === undefined) {
      return refuse(req, res, {
        status: 404,
        rpc: RPC_CODES.NO_SESSION,
        code: EDGE_ERROR_CODES.SESSION_NOT_FOUND,
        message: 'this MCP session is unknown or has ended; initialize a new one.',
      });
    }
    if (!sameDigest(connection.credential, credential)) {
      return refuse(req, res, {
        status: 403,
        rpc: RPC_CODES.UNAUTHORIZED,
        code: EDGE_ERROR_CODES.FORBIDDEN,
        message: 'this token does not belong to this MCP session.',
      });
    }
    let body: unknown;
    if (req.method === 'POST') {
      const read = await this.#readBody(req, res);
      if (!read.ok) return refuse(req, res, read.refusal);
      body = read.value;
    }
    this.#track(connection, res);
    await connection.transport.handleRequest(req, res, body);
  }

  /** A request without an MCP session: it must be an initialize from a known credential under its caps. */
  async #initialize(bearer: string, credential: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'POST') return refuse(req, res, noSession());
    const principal = await this.#backend.identify(bearer);
    if (principal === undefined) {
      this.#observe('initialize', 'unauthorized');
      return refuse(req, res, unauthenticated('the token is not valid: unknown, or its session was closed.'));
    }
    const slot = this.#quotas.take(principal.tenant, credential);
    if (isRefusal(slot)) {
      this.#observe('initialize', slot.code);
      return refuse(req, res, slot);
    }
    let transport: StreamableHTTPServerTransport | undefined;
    try {
      const read = await this.#readBody(req, res);
      if (!read.ok) return refuse(req, res, read.refusal);
      if (!isInitializeRequest(read.value)) return refuse(req, res, noSession());
      const identity = await this.#attach(principal);
      if (!('session' in identity)) return refuse(req, res, identity);
      transport = this.#open(identity, credential, slot, res);
      await transport.handleRequest(req, res, read.value);
    } finally {
      // Not initialized (refused, or the SDK turned the initialize down): give everything back.
      if (transport?.sessionId === undefined) {
        slot.release();
        await transport?.close().catch(() => undefined);
      }
    }
  }

  async #attach(principal: FrontDoorPrincipal): Promise<FrontDoorIdentity | Refusal> {
    try {
      return await this.#backend.attach(principal);
    } catch (error) {
      // Opening an API key's session counts against the tenant's session quota.
      if (error instanceof RequestError && error.code === WIRE_ERROR_CODES.QUOTA_EXCEEDED)
        return { status: 429, rpc: RPC_CODES.QUOTA, code: EDGE_ERROR_CODES.QUOTA_EXCEEDED, message: error.message };
      throw error;
    }
  }

  /** The body of an accepted request (a client waiting on `Expect: 100-continue` is told to send it now). */
  #readBody(req: IncomingMessage, res: ServerResponse) {
    return readJsonBody(req, {
      maxBytes: this.#maxBodyBytes,
      maxDepth: this.#maxJsonDepth,
      idleMs: this.#limits.bodyIdleTimeoutMs,
      proceed: () => res.writeContinue(),
    });
  }

  /** Counts an open response of the session; when the last one closes, the abandon clock starts. */
  #track(connection: Connection, res: ServerResponse): void {
    connection.lastSeen = Date.now();
    connection.streams += 1;
    res.once('close', () => {
      connection.streams -= 1;
      connection.lastSeen = Date.now();
    });
  }

  #open(
    identity: FrontDoorIdentity,
    credential: string,
    slot: McpSessionSlot,
    res: ServerResponse,
  ): StreamableHTTPServerTransport {
    const server = sessionServer(identity, this.#backend, this.#observe);
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
        const connection: Connection = {
          identity,
          credential,
          transport,
          server,
          subscription,
          slot,
          lastSeen: Date.now(),
          streams: 0,
        };
        this.#connections.set(id, connection);
        this.#track(connection, res);
        this.#observe('initialize', 'ok');
      },
      onsessionclosed: (id) => this.#drop(id),
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) {
        void this.#drop(transport.sessionId);
        return;
      }
      // Never initialized: nothing else will close what was opened for it.
      subscription.unsubscribe();
      if (identity.owned) void this.#release(identity);
    };
    void server
      .connect(transport)
      .catch((error: Error) => this.#log.warn({ err: error.message }, 'MCP connect failed'));
    return transport;
  }

  /**
   * Ends sessions without a request for `mcpIdleMs`, and sooner — after `mcpAbandonedMs` — those
   * whose client is gone (no stream open), so a client that vanished without DELETE (the MCP
   * Inspector, a killed process) does not keep its session, or its API key's session, for 30 minutes.
   */
  #endQuietSessions(): void {
    const now = Date.now();
    for (const [id, connection] of this.#connections) {
      const quiet = now - connection.lastSeen;
      const reason =
        quiet > this.#limits.mcpIdleMs
          ? 'idle'
          : connection.streams === 0 && quiet > this.#limits.mcpAbandonedMs
            ? 'abandoned'
            : undefined;
      if (reason === undefined) continue;
      this.#log.debug({ tenant: connection.identity.tenant, reason }, 'ending a quiet MCP session');
      void this.#drop(id);
    }
  }

  async #drop(id: string): Promise<void> {
    const connection = this.#connections.get(id);
    if (connection === undefined) return;
    this.#connections.delete(id);
    connection.slot.release();
    connection.subscription.unsubscribe();
    await connection.server.close().catch(() => undefined);
    if (connection.identity.owned) await this.#release(connection.identity);
  }

  #release(identity: FrontDoorIdentity): Promise<void> {
    return this.#backend
      .release(identity)
      .catch((error: Error) => this.#log.warn({ err: error.message }, 'could not close an API-key session'));
  }

  /** Ends every MCP session (on shutdown). */
  async close(): Promise<void> {
    clearInterval(this.#sweep);
    for (const id of [...this.#connections.keys()]) await this.#drop(id);
  }
}

function unauthenticated(message: string): Refusal {
  return { status: 401, rpc: RPC_CODES.UNAUTHORIZED, code: EDGE_ERROR_CODES.UNAUTHENTICATED, message };
}

function noSession(): Refusal {
  return {
    status: 400,
    rpc: RPC_CODES.NO_SESSION,
    code: EDGE_ERROR_CODES.BAD_REQUEST,
    message: 'no MCP session: send an initialize request first (without Mcp-Session-Id).',
  };
}

function sameDigest(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}
