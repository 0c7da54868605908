import { randomBytes } from 'node:crypto';
import { Queue, Worker, type Job } from 'bullmq';
import { JSONCodec, type NatsConnection } from 'nats';
import {
  CALL_ERROR_CODES,
  EVENTS,
  ResultEventSchema,
  subject,
  type Approval,
  type CallEnvelope,
} from '@toolsearch/proto';
import { execOrThrow, type RedisClient, type RedisConnector } from '../redis-client';
import { RedisKeys } from '../redis-keys';
import { FinishedApprovals, type FinishedKeys } from './finished-approvals';
import { RedisScript } from '../redis-script';

const codec = JSONCodec<unknown>();
const QUEUE = 'approvals';
/** How long a finished approval (with its result) stays readable. */
const KEEP_FINISHED_MS = 7 * 86_400_000;

/**
 * Stores a held call and adds it to its tenant's index, unless the index already holds ARGV[5]
 * calls (-1: no limit). KEYS: the record, the index; ARGV: record, time to keep (ms), time, id, limit.
 */
const HOLD = new RedisScript(`
local limit = tonumber(ARGV[5])
if limit >= 0 and redis.call('ZCARD', KEYS[2]) >= limit then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[4])
return 1`);

/** A held call as stored: everything needed to run it later on any replica. */
export type HeldCall = Omit<Approval, 'state' | 'decision' | 'result'>;
type Decision = NonNullable<Approval['decision']>;

/** Runs an approved call (on whichever replica's worker took it) and returns its envelope. */
export type ApprovedRunner = (held: HeldCall) => Promise<CallEnvelope>;

export class ApprovalError extends Error {
  constructor(
    readonly code: 'APPROVAL_NOT_FOUND' | 'ALREADY_DECIDED' | 'DECISION_MISMATCH' | 'FORBIDDEN',
    message: string,
  ) {
    super(message);
  }
}

function envelope(code: string, message: string): CallEnvelope {
  return { ok: false, data: null, error: { code, message }, status: 'done' };
}

/**
 * Held calls: one BullMQ queue (durable in Redis, shared by every replica) of delayed jobs. A job
 * waits until its expiry; a decision promotes it so a worker runs it now. The first decision wins
 * (`SET NX` on the decision key, which expiry also takes), and an approved call passes a second
 * `SET NX` guard before it runs, so it runs at most once even when replicas race, a decision
 * arrives twice, or a worker dies and BullMQ hands the job to another (that one reports
 * INTERRUPTED instead of running the call again).
 */
export class Approvals {
  readonly #redis: RedisClient;
  readonly #keys: RedisKeys;
  readonly #nc: NatsConnection;
  readonly #connector: RedisConnector;
  readonly #queue: Queue;
  readonly #queueConnection: RedisClient;
  #worker: Worker | undefined;
  #workerConnection: RedisClient | undefined;
  /** Each tenant's finished records, kept within a byte budget. */
  readonly #finished: FinishedApprovals;

  constructor(options: {
    redis: RedisClient;
    connector: RedisConnector;
    prefix: string;
    nc: NatsConnection;
    /** Bytes of finished records kept per tenant (default `FINISHED_BYTES_PER_TENANT`). */
    finishedBytesPerTenant?: number;
  }) {
    this.#redis = options.redis;
    this.#finished = new FinishedApprovals(options.redis, KEEP_FINISHED_MS, options.finishedBytesPerTenant);
    this.#keys = new RedisKeys(options.prefix);
    this.#nc = options.nc;
    this.#connector = options.connector;
    this.#queueConnection = this.#connector.create('producer', 'approvals-queue');
    this.#queue = new Queue(QUEUE, { connection: this.#queueConnection, prefix: this.bullPrefix });
    // A daemon stopped while this connection is still coming up must not die of its rejection.
    this.#queue.waitUntilReady().catch(() => undefined);
    this.#queue.on('error', (error) => this.#connector.problem('approvals-queue', 'approval queue problem', error));
  }

  /** BullMQ's key prefix for this deployment (hash-tagged: see RedisKeys). */
  get bullPrefix(): string {
    return this.#keys.approvalsQueuePrefix;
  }

  /** A key of a held call, under its tenant's hash tag (with the tenant's index, in one slot). */
  #key(tenant: string, id: string, part = ''): string {
    return this.#keys.tenant(tenant, 'approval', `${id}${part}`);
  }
  #index(tenant: string): string {
    return this.#keys.tenant(tenant, 'approvals');
  }
  #finishedKeys(tenant: string): FinishedKeys {
    return {
      index: this.#keys.tenant(tenant, 'approvals-finished'),
      sizes: this.#keys.tenant(tenant, 'approvals-finished-sizes'),
      total: this.#keys.tenant(tenant, 'approvals-finished-bytes'),
      records: { prefix: this.#key(tenant, ''), suffixes: ['', ':decision', ':ran', ':result'] },
    };
  }

  /** Starts this replica's worker: it runs decided calls and expires undecided ones. */
  start(concurrency: number, run: ApprovedRunner): void {
    this.#workerConnection = this.#connector.create('worker', 'approvals-worker');
    const processJob = (job: Job<{ tenant: string; id: string }>) => this.#process(job.data.tenant, job.data.id, run);
    this.#worker = new Worker(QUEUE, processJob, {
      connection: this.#workerConnection,
      prefix: this.bullPrefix,
      concurrency,
      // A job is the decision to run, not the run: it is never retried (the guard would refuse).
      maxStalledCount: 1,
    });
    this.#worker.on('error', (error) => this.#connector.problem('approvals-worker', 'approval worker problem', error));
    this.#worker.waitUntilReady().catch(() => undefined);
  }

  /**
   * Holds a call until a decision or its expiry. Returns the stored record, or undefined when the
   * tenant already holds `limit` calls: counted and stored in one script, so parallel lanes and
   * replicas holding at once cannot together pass the limit.
   */
  async hold(
    call: Omit<HeldCall, 'id' | 'requested_at' | 'expires_at'>,
    expiryMs: number,
    limit = Number.POSITIVE_INFINITY,
  ): Promise<HeldCall | undefined> {
    const now = Date.now();
    const held: HeldCall = {
      ...call,
      id: `a-${randomBytes(18).toString('base64url')}`,
      requested_at: now,
      expires_at: now + expiryMs,
    };
    const stored = await HOLD.run(
      this.#redis,
      2,
      this.#key(held.tenant, held.id),
      this.#index(held.tenant),
      JSON.stringify(held),
      expiryMs + KEEP_FINISHED_MS,
      now,
      held.id,
      Number.isFinite(limit) ? limit : -1,
    );
    if (stored !== 1) return undefined;
    try {
      await this.#queue.add(
        'held',
        { tenant: held.tenant, id: held.id },
        { jobId: held.id, delay: expiryMs, attempts: 1, removeOnComplete: true, removeOnFail: true },
      );
    } catch (error) {
      // Without its job nothing would ever decide or expire the call: it must not stay held.
      await execOrThrow(
        this.#redis.multi().del(this.#key(held.tenant, held.id)).zrem(this.#index(held.tenant), held.id),
      ).catch(() => undefined);
      throw error;
    }
    return held;
  }

  async #held(tenant: string, id: string): Promise<HeldCall | undefined> {
    const raw = await this.#redis.get(this.#key(tenant, id));
    if (raw === null) return undefined;
    const held = JSON.parse(raw) as HeldCall;
    // An id of another tenant is reported exactly like an unknown id.
    return held.tenant === tenant ? held : undefined;
  }

  /** One held call with its state, decision and result. */
  async get(tenant: string, id: string): Promise<Approval | undefined> {
    const held = await this.#held(tenant, id);
    if (held === undefined) return undefined;
    const [decisionRaw, resultRaw] = await this.#redis.mget(
      this.#key(tenant, id, ':decision'),
      this.#key(tenant, id, ':result'),
    );
    const decision =
      decisionRaw === null || decisionRaw === undefined ? undefined : (JSON.parse(decisionRaw) as Decision);
    const result = resultRaw === null || resultRaw === undefined ? undefined : (JSON.parse(resultRaw) as CallEnvelope);
    const state: Approval['state'] =
      decision === undefined
        ? 'pending'
        : decision.decision === 'deny'
          ? 'denied'
          : decision.decision === 'expire'
            ? 'expired'
            : result === undefined
              ? 'approved'
              : 'done';
    return {
      ...held,
      state,
      ...(decision !== undefined ? { decision } : {}),
      ...(result !== undefined ? { result } : {}),
    };
  }

  /** Held calls of every tenant still waiting for a decision (their expiry jobs are still delayed). */
  pendingCount(): Promise<number> {
    return this.#queue.getDelayedCount();
  }

  /** How many calls of the tenant are held (undecided, or decided and not finished yet). */
  heldCount(tenant: string): Promise<number> {
    return this.#redis.zcard(this.#index(tenant));
  }

  /**
   * The ids of the tenant's held calls (undecided, or decided and not finished), oldest first: one
   * read, for watchers that only need to notice a change (the web console's live pages).
   */
  heldIds(tenant: string): Promise<string[]> {
    return this.#redis.zrange(this.#index(tenant), 0, -1);
  }

  /**
   * The tenant's undecided calls (those `matches` accepts), oldest first, up to `limit`, and how
   * many held calls were read to find them (each costs two Redis reads; the caller charges the
   * tenant for them: `heldReadWeight`).
   */
  async list(
    tenant: string,
    limit: number,
    matches: (approval: Approval) => boolean = () => true,
  ): Promise<{ approvals: Approval[]; read: number }> {
    const ids = await this.#redis.zrange(this.#index(tenant), 0, -1);
    const approvals: Approval[] = [];
    let read = 0;
    for (const id of ids) {
      if (approvals.length >= limit) break;
      read += 1;
      const approval = await this.get(tenant, id);
      if (approval === undefined) {
        await this.#redis.zrem(this.#index(tenant), id);
        continue;
      }
      if (approval.state === 'pending' && matches(approval)) approvals.push(approval);
    }
    return { approvals, read };
  }

  /**
   * Records a decision. `by` is the verified approver (the name of the credential the request
   * presented; sessions hold no such credential). The decision must name the held call's tool and
   * argument digest, come from one of the policy's approvers when it names any, and be the first.
   */
  async decide(
    tenant: string,
    id: string,
    request: { decision: 'approve' | 'deny'; by: string; reason: string; tool: string; digest: string },
    approvers: readonly string[],
  ): Promise<Approval> {
    const held = await this.#held(tenant, id);
    if (held === undefined) throw new ApprovalError('APPROVAL_NOT_FOUND', `no held call '${id}' for this tenant.`);
    if (request.by === '' || request.by === held.requester) {
      throw new ApprovalError('FORBIDDEN', 'decisions come from an approver credential, never from a session.');
    }
    if (approvers.length > 0 && !approvers.includes(request.by)) {
      throw new ApprovalError(
        'FORBIDDEN',
        `credential '${request.by}' has the approver role but is not one of this tenant's approvers (policy.approval.approvers).`,
      );
    }
    if (request.tool !== held.tool || request.digest !== held.digest) {
      throw new ApprovalError(
        'DECISION_MISMATCH',
        `the decision names ${request.tool} with digest ${request.digest.slice(0, 12)}…, but the held call is ${held.tool} with digest ${held.digest.slice(0, 12)}…; nothing was decided.`,
      );
    }
    const expired = Date.now() >= held.expires_at;
    const decision: Decision = expired
      ? { decision: 'expire', by: 'toolsearchd', reason: 'nobody decided in time', at: Date.now() }
      : { decision: request.decision, by: request.by, reason: request.reason, at: Date.now() };
    const won = await this.#redis.set(
      this.#key(tenant, id, ':decision'),
      JSON.stringify(decision),
      'PX',
      KEEP_FINISHED_MS,
      'NX',
    );
    if (won === null || expired) {
      const current = await this.get(tenant, id);
      throw new ApprovalError(
        'ALREADY_DECIDED',
        `held call '${id}' is already ${current?.state ?? 'decided'}; the first decision stands.`,
      );
    }
    const job = await this.#queue.getJob(id);
    // Run it now; if a worker already has it (expiry racing), the decision key settles the outcome.
    await job?.promote().catch(() => undefined);
    const approval = await this.get(tenant, id);
    if (approval === undefined) throw new ApprovalError('APPROVAL_NOT_FOUND', `no held call '${id}' for this tenant.`);
    return approval;
  }

  /** Waits up to `ms` for a held call to finish; undefined when it has not. */
  async waitForResult(tenant: string, id: string, ms: number): Promise<Approval | undefined> {
    const deadline = Date.now() + ms;
    for (;;) {
      const approval = await this.get(tenant, id);
      if (approval?.result !== undefined) return approval;
      const left = deadline - Date.now();
      if (left <= 0) return undefined;
      await new Promise((resolve) => setTimeout(resolve, Math.min(25, left)));
    }
  }

  async #process(tenant: string, id: string, run: ApprovedRunner): Promise<void> {
    const raw = await this.#redis.get(this.#key(tenant, id));
    if (raw === null) return;
    const held = JSON.parse(raw) as HeldCall;
    const expire: Decision = {
      decision: 'expire',
      by: 'toolsearchd',
      reason: 'nobody decided in time',
      at: Date.now(),
    };
    // An undecided job only reaches a worker at its expiry: expiry takes the decision, if nobody did.
    await this.#redis.set(this.#key(tenant, id, ':decision'), JSON.stringify(expire), 'PX', KEEP_FINISHED_MS, 'NX');
    const decision = JSON.parse(
      (await this.#redis.get(this.#key(tenant, id, ':decision'))) ?? 'null',
    ) as Decision | null;
    let result: CallEnvelope;
    if (decision?.decision === 'approve') {
      const first = await this.#redis.set(
        this.#key(tenant, id, ':ran'),
        String(Date.now()),
        'PX',
        KEEP_FINISHED_MS,
        'NX',
      );
      if (first === null) {
        const stored = await this.#redis.get(this.#key(tenant, id, ':result'));
        if (stored !== null) return;
        result = envelope(
          CALL_ERROR_CODES.INTERRUPTED,
          'The replica running this approved call stopped mid-call; it is not run again because it may already have had effects.',
        );
      } else {
        result = await run(held).catch((error: Error) =>
          envelope(CALL_ERROR_CODES.TOOL_ERROR, `the approved call failed: ${error.message}`),
        );
      }
    } else if (decision?.decision === 'deny') {
      result = envelope(
        CALL_ERROR_CODES.DENIED,
        `An approver (${decision.by}) denied this call${decision.reason ? `: ${decision.reason}` : ''}.`,
      );
    } else {
      result = envelope(CALL_ERROR_CODES.EXPIRED, 'Nobody approved this call in time, so it did not run.');
    }
    result = { ...result, approval_id: id, tool: held.tool };
    await execOrThrow(
      this.#redis
        .multi()
        .set(this.#key(tenant, id, ':result'), JSON.stringify(result), 'PX', KEEP_FINISHED_MS)
        .zrem(this.#index(tenant), id),
    );
    const event = ResultEventSchema.parse({
      tenant: held.tenant,
      session: held.session,
      approval_id: id,
      call_id: held.call_id,
      tool: held.tool,
      result,
    });
    this.#nc.publish(
      subject(EVENTS.sessionResult.template, { tenant: held.tenant, session: held.session }),
      codec.encode(event),
    );
    // What the finished call keeps in Redis for a week counts against its tenant's budget.
    const bytes = Buffer.byteLength(raw) + Buffer.byteLength(JSON.stringify(result)) + 512;
    await this.#finished
      .note(this.#finishedKeys(tenant), id, bytes)
      .catch((error: Error) =>
        this.#connector.problem('approvals-finished', 'could not count finished approvals', error),
      );
  }

  async close(): Promise<void> {
    await this.#worker?.close().catch(() => undefined);
    await this.#queue.close().catch(() => undefined);
    this.#workerConnection?.disconnect();
    this.#queueConnection.disconnect();
  }
}
