import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { NatsConnection } from 'nats';
import type { Logger } from 'pino';
import { HeldRefusals } from '../held-refusals';
import type { RedisClient } from '../redis-client';
import { tokenDigest } from '../session-store.adapter';
import { RequestError } from '../serve-request';
import type { FrontDoorBackend, FrontDoorIdentity, FrontDoorPrincipal } from './front-door-types';
import { EDGE_ERROR_CODES, refuse, RPC_CODES, type Refusal } from './edge-refusal';
import type { HttpConfig } from './http-config';
import { McpEventStreams } from './mcp-event-streams';
import { McpSessionSweep } from './mcp-session-sweep';
import { admissionRefusal, attachRefusal, INITIALIZE_WEIGHT_OPENING, mcpRequestWeight } from './mcp-request-admission';
import { isRefusal, McpSessionQuotas, quotaRefusal } from './mcp-session-quotas';
import { sessionServer } from './mcp-session-server';
import { McpSessionStore, type McpSessionRecord } from './mcp-session-store';
import { readJsonBody } from './request-body';

export { toCallToolResult } from './call-result';

export type { FrontDoorBackend, FrontDoorIdentity, FrontDoorPrincipal } from './front-door-types';

/** How long a 429 from `/mcp` waits before it is sent (a little jitter is added). */
export const QUOTA_REFUSAL_HOLD_MS = 200;

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

/**
 * The MCP endpoint (`/mcp`, Streamable HTTP). Each MCP session acts as one toolsearch session:
 * `tools/list` is that session's assembled surface, `tools/call` goes through the same dispatcher
 * as NATS dispatch, and a change of the session's surface (its tier event, published once per
 * real change by whichever replica saw it) becomes `notifications/tools/list_changed` on the
 * session's GET event stream, on whichever replica holds it.
 *
 * No replica holds an MCP session: its record (the toolsearch session it acts as, the digest of
 * the credential that opened it, created, last seen) is in Redis (`McpSessionStore`), and every
 * request runs on a fresh stateless SDK transport and server, so any replica serves any request
 * of any session. The daemon issues the `Mcp-Session-Id` on initialize and checks it on every
 * later request (unknown or expired: 404); it serves the GET event stream itself.
 *
 * Every request is judged on its headers before its body is read: the bearer (401), the MCP
 * session it names (404, 403), the session caps (429); only then is the body read, within
 * `limits.maxPayloadBytes` and `http.bodyIdleTimeoutMs`.
 *
 * A 429 (a session cap or the tenant's session quota) is held before it is sent (`HeldRefusals`:
 * a tenant's first waits QUOTA_REFUSAL_HOLD_MS and a little, those refused meanwhile leave with
 * it; at most 64 per tenant and 4,096 in all, the rest at once): a client
 * that initializes again as soon as it is refused sent 7,000 initializes a second that could only
 * be refused, and answering them took a core from every other tenant.
 */
export class McpFrontDoor {
  readonly #backend: FrontDoorBackend;
  /** Quota refusals waiting to be answered, by tenant. */
  readonly #heldRefusals = new HeldRefusals<() => void>({
    send: (answer) => {
      // Sent from a timer: nothing above would catch a throw.
      try {
        answer();
      } catch (error) {
        this.#log.warn({ err: (error as Error).message }, 'could not send a held refusal');
      }
    },
  });
  readonly #log: Logger;
  readonly #maxBodyBytes: number;
  readonly #maxJsonDepth: number;
  readonly #limits: FrontDoorLimits;
  readonly #store: McpSessionStore;
  readonly #streams: McpEventStreams;
  /** This replica's cap on the sessions it opened (`http.maxMcpSessions`); the other caps are counted in Redis. */
  readonly #local: McpSessionQuotas;
  readonly #sweep: McpSessionSweep;
  readonly #observe: (method: string, outcome: string) => void;
  readonly #admit: ((tenant: string, weight: number, bytes: number) => Promise<void>) | undefined;

  constructor(options: {
    backend: FrontDoorBackend;
    nc: NatsConnection;
    redis: RedisClient;
    /** `namespace.redisPrefix`. */
    prefix: string;
    log: Logger;
    maxBodyBytes: number;
    /** Deepest nesting a JSON body may have (`limits.maxJsonDepth`). */
    maxJsonDepth?: number;
    limits: FrontDoorLimits;
    /** Tenants the config names: their quiet sessions are swept even when this replica never saw them. */
    tenants?: readonly string[];
    observe?: (method: string, outcome: string) => void;
    /**
     * Counts a request (`tools/list`, `tools/call`) against its tenant's requests per second,
     * waiting for its turn like a NATS request (`QuotaGate.admit`); throws a `RequestError` when
     * it gets none.
     */
    admit?: (tenant: string, weight: number, bytes: number) => Promise<void>;
  }) {
    this.#admit = options.admit;
    this.#backend = options.backend;
    this.#log = options.log;
    this.#maxBodyBytes = options.maxBodyBytes;
    this.#maxJsonDepth = options.maxJsonDepth ?? 64;
    this.#limits = options.limits;
    this.#store = new McpSessionStore(options.redis, options.prefix, options.limits);
    this.#streams = new McpEventStreams(options.nc);
    const unlimited = Number.MAX_SAFE_INTEGER;
    this.#local = new McpSessionQuotas({
      maxMcpSessions: options.limits.maxMcpSessions,
      maxMcpSessionsPerTenant: unlimited,
      maxMcpSessionsPerCredential: unlimited,
    });
    this.#observe = options.observe ?? (() => undefined);
    this.#sweep = new McpSessionSweep({
      store: this.#store,
      streams: this.#streams,
      limits: options.limits,
      tenants: options.tenants ?? [],
      end: (record) => this.#end(record),
      log: options.log,
    });
  }

  /** MCP sessions this replica opened that are still open (anywhere). */
  get size(): number {
    return this.#sweep.opened;
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

  /** A request on an open MCP session, which any replica may have opened. */
  async #continue(id: string, credential: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const record = await this.#store.get(id);
    if (record === undefined) {
      return refuse(req, res, {
        status: 404,
        rpc: RPC_CODES.NO_SESSION,
        code: EDGE_ERROR_CODES.SESSION_NOT_FOUND,
        message: 'this MCP session is unknown or has ended; initialize a new one.',
      });
    }
    if (!sameDigest(record.credential, credential)) {
      return refuse(req, res, {
        status: 403,
        rpc: RPC_CODES.UNAUTHORIZED,
        code: EDGE_ERROR_CODES.FORBIDDEN,
        message: 'this token does not belong to this MCP session.',
      });
    }
    this.#sweep.saw(record.tenant);
    if (req.method === 'GET') return this.#eventStream(record, req, res);
    if (req.method === 'DELETE') {
      await this.#end(record);
      res.writeHead(200, { 'mcp-session-id': record.id });
      res.end();
      return;
    }
    const read = await this.#readBody(req, res);
    if (!read.ok) return refuse(req, res, read.refusal);
    if (!(await this.#admitted(record.tenant, read, req, res))) return;
    await this.#serve(record, req, res, read.value);
  }

  /**
   * Counts a request against its tenant's requests per second (weighed as the same work over
   * NATS; past the tenant's burst it waits for its turn, holding its body). A refusal is answered
   * here, a 429 held like a refused initialize's. False when the request is not to be served:
   * refused, or its client went away while it waited.
   */
  async #admitted(
    tenant: string,
    read: { value: unknown; bytes: number },
    req: IncomingMessage,
    res: ServerResponse,
    weight = mcpRequestWeight(read.value),
  ): Promise<boolean> {
    if (weight === 0 || this.#admit === undefined) return true;
    try {
      await this.#admit(tenant, weight, read.bytes);
    } catch (error) {
      if (!(error instanceof RequestError)) throw error;
      this.#refuseQuota(tenant, req, res, admissionRefusal(error));
      return false;
    }
    return !res.destroyed && !res.writableEnded;
  }

  /** The session's GET event stream, held by this replica for as long as the client keeps it open. */
  async #eventStream(record: McpSessionRecord, req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!(req.headers.accept ?? '').includes('text/event-stream')) {
      return refuse(req, res, {
        status: 406,
        rpc: RPC_CODES.INVALID_REQUEST,
        code: EDGE_ERROR_CODES.BAD_REQUEST,
        message: 'the event stream needs "Accept: text/event-stream".',
      });
    }
    if (this.#streams.has(record.id)) {
      return refuse(req, res, {
        status: 409,
        rpc: RPC_CODES.INVALID_REQUEST,
        code: EDGE_ERROR_CODES.BAD_REQUEST,
        message: 'this MCP session already has an event stream open.',
      });
    }
    if (!(await this.#store.touch(record, 1))) return refuse(req, res, gone());
    this.#streams.open(record.id, record, res, () => void this.#closed(record));
  }

  /** One request of the session on a stateless SDK transport and server of its own. */
  async #serve(record: McpSessionRecord, req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    if (!(await this.#store.touch(record, 1))) return refuse(req, res, gone());
    const server = sessionServer(record, this.#backend, this.#observe);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.once('close', () => {
      void this.#closed(record);
      void server.close().catch(() => undefined);
    });
    await server.connect(transport);
    res.setHeader('mcp-session-id', record.id);
    await transport.handleRequest(req, res, body);
  }

  /** A response of the session closed: one stream fewer, and the abandon clock starts from now. */
  async #closed(record: McpSessionRecord): Promise<void> {
    await this.#store.touch(record, -1).catch(() => undefined);
  }

  /** A request without an MCP session: it must be an initialize from a known credential under its caps. */
  async #initialize(bearer: string, credential: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'POST') return refuse(req, res, noSession());
    const principal = await this.#backend.identify(bearer);
    if (principal === undefined) {
      this.#observe('initialize', 'unauthorized');
      return refuse(req, res, unauthenticated('the token is not valid: unknown, or its session was closed.'));
    }
    const slot = this.#local.take(principal.tenant, credential);
    if (isRefusal(slot)) {
      this.#observe('initialize', slot.code);
      return refuse(req, res, slot);
    }
    let record: McpSessionRecord | undefined;
    let initialized = false;
    try {
      const full = await this.#store.room(principal.tenant, credential);
      if (full !== undefined) return this.#refuseFull(principal.tenant, req, res, full);
      const read = await this.#readBody(req, res);
      if (!read.ok) return refuse(req, res, read.refusal);
      if (!isInitializeRequest(read.value)) return refuse(req, res, noSession());
      // An API key's initialize opens a session: it counts as a `sessions.open` over NATS does.
      const weight = principal.kind === 'apiKey' ? INITIALIZE_WEIGHT_OPENING : 1;
      if (!(await this.#admitted(principal.tenant, read, req, res, weight))) return;
      const identity = await this.#attach(principal);
      if (!('session' in identity)) return this.#refuseQuota(principal.tenant, req, res, identity);
      const reserved = await this.#store.reserve(identity, credential);
      if ('refused' in reserved) {
        if (identity.owned) await this.#release(identity);
        return this.#refuseFull(principal.tenant, req, res, reserved.refused);
      }
      const now = Date.now();
      record = { id: reserved.id, ...identity, credential, created: now, lastSeen: now, streams: 0 };
      this.#sweep.opening(record, slot);
      await this.#serve(record, req, res, read.value);
      initialized = res.statusCode < 300;
      if (initialized) this.#observe('initialize', 'ok');
    } finally {
      // Not initialized (refused, failed, or the SDK turned the initialize down): give everything back.
      if (record === undefined) slot.release();
      else if (!initialized) await this.#end(record);
    }
  }

  #refuseFull(tenant: string, req: IncomingMessage, res: ServerResponse, cap: 'credential' | 'tenant'): void {
    const refusal =
      cap === 'credential'
        ? quotaRefusal(
            'http.maxMcpSessionsPerCredential',
            this.#limits.maxMcpSessionsPerCredential,
            'MCP sessions are open with this credential',
          )
        : quotaRefusal(
            'http.maxMcpSessionsPerTenant',
            this.#limits.maxMcpSessionsPerTenant,
            'MCP sessions of this tenant are open',
          );
    this.#observe('initialize', refusal.code);
    this.#refuseQuota(tenant, req, res, refusal);
  }

  /** Answers a refusal, holding it for QUOTA_REFUSAL_HOLD_MS when it is a 429. */
  #refuseQuota(tenant: string, req: IncomingMessage, res: ServerResponse, refusal: Refusal): void {
    if (refusal.status !== 429) return refuse(req, res, refusal);
    const holdMs = QUOTA_REFUSAL_HOLD_MS + Math.floor(Math.random() * 20);
    this.#heldRefusals.hold(tenant, () => refuse(req, res, refusal), holdMs);
  }

  async #attach(principal: FrontDoorPrincipal): Promise<FrontDoorIdentity | Refusal> {
    try {
      return await this.#backend.attach(principal);
    } catch (error) {
      const refusal = attachRefusal(error);
      if (refusal !== undefined) return refusal;
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

  /**
   * Ends a session (DELETE, the sweep, a refused initialize). Only the replica whose removal
   * succeeded closes the session its API key opened, so it is closed once.
   */
  async #end(record: McpSessionRecord): Promise<void> {
    this.#streams.end(record.id);
    this.#sweep.ended(record.id);
    if (!(await this.#store.end(record))) return;
    if (record.owned) await this.#release(record);
  }

  #release(identity: FrontDoorIdentity): Promise<void> {
    return this.#backend
      .release(identity)
      .catch((error: Error) => this.#log.warn({ err: error.message }, 'could not close an API-key session'));
  }

  /**
   * Stops this replica's part (on shutdown): its event streams end (their clients reopen them on
   * another replica) and its sweep stops. The sessions stay: they are every replica's.
   */
  close(): Promise<void> {
    this.#heldRefusals.close();
    this.#sweep.stop();
    this.#streams.close();
    return Promise.resolve();
  }
}

function unauthenticated(message: string): Refusal {
  return { status: 401, rpc: RPC_CODES.UNAUTHORIZED, code: EDGE_ERROR_CODES.UNAUTHENTICATED, message };
}

function gone(): Refusal {
  return {
    status: 404,
    rpc: RPC_CODES.NO_SESSION,
    code: EDGE_ERROR_CODES.SESSION_NOT_FOUND,
    message: 'this MCP session has ended; initialize a new one.',
  };
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
