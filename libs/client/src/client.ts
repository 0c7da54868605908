import { headers as natsHeaders, JSONCodec, type NatsConnection, type Subscription } from 'nats';
import type { z } from 'zod';
import {
  ENDPOINTS,
  ErrorReplySchema,
  EVENTS,
  subject,
  TierEventSchema,
  ToolsetChangedEventSchema,
  ActivityEventSchema,
  ResultEventSchema,
  type ActivityEvent,
  type ApprovalDecideRequest,
  type DispatchRequest,
  type ResultEvent,
  type SpawnRequest,
  ToolsearchWireError,
  type EndpointDescriptor,
  type OpenSessionRequest,
  type TierEvent,
  type ToolsetChangedEvent,
} from '@toolsearch/proto';

const codec = JSONCodec<unknown>();

export interface ClientOptions {
  /** How long a request may take before it fails, in ms. */
  readonly timeoutMs?: number;
  /**
   * The credential key this client presents (`Authorization: Bearer …`): a gateway's, an
   * approver's or an operator's, as configured in the daemon by its sha256.
   */
  readonly credential?: string;
}

/**
 * A typed client for one tenant of the toolsearch v1 contract over an existing NATS connection.
 * Every reply is validated against the contract; an error reply becomes a `ToolsearchWireError`
 * carrying its code.
 */
export class ToolsearchClient {
  readonly tenant: string;
  readonly #nc: NatsConnection;
  readonly #timeout: number;
  readonly #credential: string | undefined;
  /** Tokens of the sessions this client opened or was given: requests on a session present its token. */
  readonly #tokens = new Map<string, string>();

  constructor(nc: NatsConnection, tenant: string, options: ClientOptions = {}) {
    this.#nc = nc;
    this.tenant = tenant;
    this.#timeout = options.timeoutMs ?? 5000;
    this.#credential = options.credential;
  }

  /**
   * Acts on a session through its token from now on (a worker with its job's token, a gateway
   * process that took over a session). Sessions this client opens or spawns are remembered.
   */
  useSession(session: string, token: string): void {
    this.#tokens.set(session, token);
  }

  /**
   * The secret a request presents: the session's token for a request on a known session (or
   * naming a known parent), otherwise the client's credential key.
   */
  #bearer(params: { session?: string }, payload: unknown): string | undefined {
    const parent =
      typeof payload === 'object' && payload !== null ? (payload as { parent?: unknown }).parent : undefined;
    const session = params.session ?? (typeof parent === 'string' ? parent : undefined);
    return (session !== undefined ? this.#tokens.get(session) : undefined) ?? this.#credential;
  }

  /** Sends a raw payload to an endpoint and returns the validated success reply. */
  async call<Req extends z.ZodType, Rep extends z.ZodType>(
    endpoint: EndpointDescriptor<Req, Rep>,
    payload: unknown,
    params: { session?: string; id?: string } = {},
  ): Promise<z.infer<Rep>> {
    const bearer = this.#bearer(params, payload);
    const headers = natsHeaders();
    if (bearer !== undefined) headers.set('Authorization', `Bearer ${bearer}`);
    const reply = await this.#nc.request(
      subject(endpoint.template, { tenant: this.tenant, ...params }),
      codec.encode(payload),
      { timeout: this.#timeout, headers },
    );
    const body = codec.decode(reply.data);
    const failure = ErrorReplySchema.safeParse(body);
    if (failure.success) throw new ToolsearchWireError(failure.data.error);
    return endpoint.reply.parse(body) as z.infer<Rep>;
  }

  async openSession(request: OpenSessionRequest) {
    const reply = await this.call(ENDPOINTS.sessionsOpen, request);
    this.#tokens.set(reply.session.id, reply.token);
    return reply;
  }

  assemble(session: string, format: 'openai' | 'anthropic' | 'mcp' = 'openai') {
    return this.call(ENDPOINTS.sessionsAssemble, { format }, { session });
  }

  search(session: string, queries: unknown, limit?: number, options: { explain?: boolean } = {}) {
    return this.call(
      ENDPOINTS.sessionsSearch,
      { queries, ...(limit !== undefined ? { limit } : {}), ...(options.explain ? { explain: true } : {}) },
      { session },
    );
  }

  describe(session: string, names: unknown) {
    return this.call(ENDPOINTS.sessionsDescribe, { names }, { session });
  }

  async closeSession(session: string) {
    const reply = await this.call(ENDPOINTS.sessionsClose, {}, { session });
    for (const id of reply.closed) this.#tokens.delete(id);
    return reply;
  }

  putToolset(toolset: unknown) {
    return this.call(ENDPOINTS.toolsetsPut, { toolset });
  }

  deleteToolset(id: string) {
    return this.call(ENDPOINTS.toolsetsDelete, { id });
  }

  /** Runs one turn's tool calls; results come back in call order. */
  dispatch(session: string, calls: DispatchRequest['calls'], options: { waitMs?: number } = {}) {
    return this.call(
      ENDPOINTS.sessionsDispatch,
      { calls, ...(options.waitMs !== undefined ? { wait_ms: options.waitMs } : {}) },
      { session },
    );
  }

  /** A child session within the parent's grant, plus a queued job for a worker. */
  async spawn(request: SpawnRequest) {
    const reply = await this.call(ENDPOINTS.subagentsSpawn, request);
    this.#tokens.set(reply.session.id, reply.token);
    return reply;
  }

  listApprovals(filter: { session?: string; tool?: string; limit?: number } = {}) {
    return this.call(ENDPOINTS.approvalsList, filter);
  }

  decide(id: string, decision: ApprovalDecideRequest) {
    return this.call(ENDPOINTS.approvalsDecide, decision, { id });
  }

  getApproval(id: string) {
    return this.call(ENDPOINTS.approvalsGet, {}, { id });
  }

  /** The tenant's open sessions, newest first. */
  listSessions(filter: { role?: 'gateway' | 'subagent' | 'kanban_worker'; limit?: number } = {}) {
    return this.call(ENDPOINTS.sessionsList, filter);
  }

  /** One session: grant, model, children and its current surface (tier, listing, tokens). */
  showSession(session: string) {
    return this.call(ENDPOINTS.sessionsShow, {}, { session });
  }

  /** The tenant's toolsets with tool counts and availability. */
  listToolsets() {
    return this.call(ENDPOINTS.toolsetsList, {});
  }

  /** The tenant's usage of each quota against its limit. */
  showTenant() {
    return this.call(ENDPOINTS.tenantShow, {});
  }

  /** The newest trace records of dispatched calls (optionally of one session). */
  recentActivity(filter: { session?: string; limit?: number } = {}) {
    return this.call(ENDPOINTS.auditRecent, filter);
  }

  /** Calls `onEvent` when a held call of the session finished (`*`: any session). */
  onResult(session: string, onEvent: (event: ResultEvent) => void): Subscription {
    return this.#subscribe(this.#sessionEvent(EVENTS.sessionResult.template, session), (data) =>
      onEvent(ResultEventSchema.parse(data)),
    );
  }

  /** Calls `onEvent` for every start and finish of a call of the session (`*`: any session). */
  onActivity(session: string, onEvent: (event: ActivityEvent) => void): Subscription {
    return this.#subscribe(this.#sessionEvent(EVENTS.sessionActivity.template, session), (data) =>
      onEvent(ActivityEventSchema.parse(data)),
    );
  }

  #sessionEvent(template: string, session: string): string {
    return subject(template, { tenant: this.tenant, session: session === '*' ? 'ANY' : session }).replace(
      '.ANY.',
      '.*.',
    );
  }

  /** Calls `onEvent` for every tier event of a session (or of every session with `*`). */
  onTier(session: string, onEvent: (event: TierEvent) => void): Subscription {
    return this.#subscribe(
      subject(EVENTS.sessionTier.template, { tenant: this.tenant, session: session === '*' ? 'ANY' : session }).replace(
        '.ANY.',
        '.*.',
      ),
      (data) => onEvent(TierEventSchema.parse(data)),
    );
  }

  /** Calls `onEvent` for every toolset change of the tenant. */
  onToolsetChanged(onEvent: (event: ToolsetChangedEvent) => void): Subscription {
    return this.#subscribe(subject(EVENTS.toolsetChanged.template, { tenant: this.tenant }), (data) =>
      onEvent(ToolsetChangedEventSchema.parse(data)),
    );
  }

  #subscribe(subjectName: string, handle: (data: unknown) => void): Subscription {
    return this.#nc.subscribe(subjectName, {
      callback: (error, message) => {
        if (error) return;
        try {
          handle(codec.decode(message.data));
        } catch {
          // An event that does not match the contract is ignored rather than thrown into NATS.
        }
      },
    });
  }
}
