import { JSONCodec, type NatsConnection } from 'nats';
import type { Logger } from 'pino';
import { compileGlob } from '@toolsearch/catalog';
import {
  ApprovalDecideRequestSchema,
  ApprovalIdSchema,
  ApprovalsListRequestSchema,
  DispatchRequestSchema,
  EVENTS,
  subject,
  WIRE_ERROR_CODES,
} from '@toolsearch/proto';
import type { DaemonConfig } from '../config';
import type { McpPool } from '../mcp-pool.adapter';
import type { RedisClient, RedisConnector } from '../redis-client';
import { policyFor } from '../policy-config';
import { parse, RequestError } from '../serve-request';
import { Approvals, ApprovalError } from './approvals.adapter';
import { AuditLog } from './audit.adapter';
import { Dispatcher, type DispatcherDeps } from './dispatcher';
import type { DispatchHooks, TurnContext } from './turn-types';
import { NatsHooks } from './nats-hooks.adapter';
import { Executors } from './executors.adapter';
import { RateLimiter } from './rate-limiter.adapter';
import { WorkerQueues } from './worker-queues.adapter';
import { heldReadWeight } from '../request-weights';

const codec = JSONCodec<unknown>();

/** Finds the current turn context of a session (or undefined when it no longer exists). */
export type ContextSource = (tenant: string, session: string) => Promise<TurnContext | undefined>;

/**
 * Dispatch, approvals and worker jobs, wired together: the daemon hands it requests and a way to
 * find a session's current surface; everything it keeps lives in Redis (BullMQ, streams, keys).
 */
export class DispatchService {
  readonly executors: Executors;
  readonly audit: AuditLog;
  readonly approvals: Approvals;
  readonly queues: WorkerQueues;
  readonly dispatcher: Dispatcher;
  readonly #config: DaemonConfig;
  readonly #contextOf: ContextSource;
  readonly #charge: DispatcherDeps['charge'];

  constructor(options: {
    config: DaemonConfig;
    nc: NatsConnection;
    redis: RedisClient;
    /** Opens the BullMQ connections (approvals queue and worker, worker queues) for the configured Redis mode. */
    connector: RedisConnector;
    mcp: McpPool;
    log: Logger;
    hooks: readonly DispatchHooks[];
    contextOf: ContextSource;
    /** Whether the tenant may hold one more call (its quota); why not, otherwise. */
    admitHold?: (tenant: string) => Promise<string | undefined>;
    /** The most calls the tenant may hold at once (enforced when the call is stored). */
    holdLimit?: (tenant: string) => number;
    /** Told the tools a turn described or ran successfully (for `keep_found`). */
    noteFound?: (tenant: string, session: string, names: readonly string[]) => void;
    /** Learning from use (usage-learning.ts). */
    usage?: DispatcherDeps['usage'];
    /** Counts what a `tool_search` cost beyond its weight (search-cost.ts). */
    charge?: DispatcherDeps['charge'];
  }) {
    const { config, nc, redis, log } = options;
    const prefix = config.namespace.redisPrefix;
    this.#config = config;
    this.#contextOf = options.contextOf;
    this.#charge = options.charge;
    this.executors = new Executors(nc, options.mcp, log);
    this.audit = new AuditLog(redis, prefix, config.dispatch.auditMaxLen);
    this.approvals = new Approvals({ redis, connector: options.connector, prefix, nc });
    this.queues = new WorkerQueues(options.connector, prefix);
    this.dispatcher = new Dispatcher({
      executors: this.executors,
      audit: this.audit,
      limiter: new RateLimiter(redis, prefix),
      approvals: this.approvals,
      // The operator's NATS hooks first, then the embedder's in-process ones.
      hooks: [new NatsHooks({ nc, audit: this.audit, policyOf: (tenant) => this.policyOf(tenant) }), ...options.hooks],
      publishActivity: (event) =>
        nc.publish(
          subject(EVENTS.sessionActivity.template, { tenant: event.tenant, session: event.session }),
          codec.encode(event),
        ),
      settings: config.dispatch,
      ...(options.admitHold !== undefined ? { admitHold: options.admitHold } : {}),
      ...(options.holdLimit !== undefined ? { holdLimit: options.holdLimit } : {}),
      ...(options.noteFound !== undefined ? { noteFound: options.noteFound } : {}),
      ...(options.usage !== undefined ? { usage: options.usage } : {}),
      ...(options.charge !== undefined ? { charge: options.charge } : {}),
    });
    this.approvals.start(config.dispatch.approvalConcurrency, async (held) =>
      this.dispatcher.runApproved(await this.#contextOf(held.tenant, held.session), held),
    );
  }

  policyOf(tenant: string) {
    return policyFor(this.#config, tenant);
  }

  async dispatch(context: TurnContext, body: unknown) {
    const request = parse(DispatchRequestSchema, body);
    const results = await this.dispatcher.dispatch(
      context,
      request.calls.map((call) => ({ id: call.id, name: call.name, arguments: call.arguments })),
      request.wait_ms,
    );
    return { ok: true as const, results };
  }

  async list(tenant: string, body: unknown) {
    const request = parse(ApprovalsListRequestSchema, body);
    // Case-insensitive `*` wildcards, compiled once and matched without regular expressions.
    const tool = request.tool === undefined ? undefined : compileGlob(request.tool, { caseInsensitive: true });
    // Read until `limit` calls match (a filter matching few reads every held call): the tenant pays for the reads.
    const { approvals, read } = await this.approvals.list(
      tenant,
      request.limit,
      (approval) =>
        (request.session === undefined || approval.session === request.session) &&
        (tool === undefined || tool.matches(approval.tool) || tool.matches(approval.original_name)),
    );
    this.#charge?.(tenant, heldReadWeight(read));
    return { ok: true as const, approvals };
  }

  /** Records a decision by `approver`, the name of the approver credential the request proved. */
  async decide(tenant: string, id: string | undefined, body: unknown, approver: string) {
    const approvalId = this.#approvalId(id);
    const request = parse(ApprovalDecideRequestSchema, body);
    try {
      let approval = await this.approvals.decide(
        tenant,
        approvalId,
        { ...request, by: approver },
        this.policyOf(tenant).approval.approvers,
      );
      if (request.wait_ms > 0) {
        approval = (await this.approvals.waitForResult(tenant, approvalId, request.wait_ms)) ?? approval;
      }
      return { ok: true as const, approval };
    } catch (error) {
      if (error instanceof ApprovalError) throw new RequestError(WIRE_ERROR_CODES[error.code], error.message);
      throw error;
    }
  }

  async get(tenant: string, id: string | undefined) {
    const approval = await this.approvals.get(tenant, this.#approvalId(id));
    if (approval === undefined)
      throw new RequestError(WIRE_ERROR_CODES.APPROVAL_NOT_FOUND, 'no held call with this id for this tenant.');
    return { ok: true as const, approval };
  }

  #approvalId(id: string | undefined): string {
    const parsed = ApprovalIdSchema.safeParse(id);
    if (!parsed.success)
      throw new RequestError(WIRE_ERROR_CODES.APPROVAL_NOT_FOUND, 'no held call with this id for this tenant.');
    return parsed.data;
  }

  async close(): Promise<void> {
    await this.approvals.close();
    await this.queues.close();
  }
}
