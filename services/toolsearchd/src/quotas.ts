import { WIRE_ERROR_CODES, type EndpointName } from '@toolsearch/proto';
import { QuotaExceededError, type QuotaReport, type Quotas, type QuotaUsageSource } from './quota-settings';
import type { GuardedHandler } from './identity/authority';
import { type RedisClient } from './redis-client';
import { PAY_SCRIPT, QuotaDebts } from './quota-debts';
import { RedisKeys } from './redis-keys';
import { RequestPacer, type PaceRefusal, type PacerOptions } from './request-pacer';
import { DECISION_HEADROOM, DECISIONS, REQUEST_WEIGHTS, UNPACED } from './request-weights';
import { RequestError } from './serve-request';

export {
  QuotaExceededError,
  QuotasSchema,
  tenantQuotas,
  type QuotaName,
  type QuotaReport,
  type Quotas,
  type QuotaUsageSource,
} from './quota-settings';

/** The most charged work carried into later seconds, in seconds' worth of the tenant's limit. */
const MAX_DEBT_SECONDS = 5;
/** A debt nobody added to or paid for this long is forgotten (the tenant has been idle). */
const DEBT_EXPIRY_MS = 10_000;

/** Requests counted locally are added to the shared Redis window this often. */
const SYNC_MS = 100;

/** One tenant's count of one second's window on this replica (see `QuotaGate.#windows`). */
interface WindowCount {
  window: number;
  pending: number;
  sending: number;
  /** Counted here but never added to Redis (a sync that failed): Redis's totals lack it. */
  unsynced: number;
  shared: number;
  /** Debt counted here at the window's start and not yet offered to Redis (`QuotaDebts`). */
  debt: number;
  /** Of `pending`: work charged after the fact (`charge`), part of which may go past the limit. */
  charged: number;
  refusal?: QuotaExceededError | undefined;
}

/** Every request of the window known here: the shared total, plus what Redis has not yet added to it. */
const counted = (counter: WindowCount) => counter.shared + counter.sending + counter.pending + counter.debt;

/**
 * Checks every per-tenant quota. Counts come from the stores (Redis, the registry) at the moment of
 * the check; requests per second are counted in one-second windows shared through Redis, with each
 * replica adding its local count every 100 ms, so a request costs no round trip.
 */
export class QuotaGate {
  readonly #defaults: Quotas;
  readonly #perTenant: ReadonlyMap<string, Quotas>;
  readonly #source: QuotaUsageSource;
  readonly #redis: RedisClient;
  readonly #keys: RedisKeys;
  /**
   * Per tenant: requests counted here in the current window and not yet added to Redis (`pending`),
   * those on their way to Redis (`sending`: not yet in `shared`), and the shared total last seen.
   */
  readonly #windows = new Map<string, WindowCount>();
  /** Per tenant: charged work its windows could not count yet. */
  readonly #debts = new QuotaDebts();
  /** Counters of seconds that ended before their counts were sent (sent by the next sync). */
  readonly #retired: [string, WindowCount][] = [];
  #timer: NodeJS.Timeout | undefined;
  /** When in its second each tenant's requests run (request-pacer.ts), on the monotonic clock. */
  readonly #pacer: RequestPacer;
  readonly #paceRefusals = new Map<string, QuotaExceededError>();
  readonly #clock: () => number;

  constructor(options: {
    defaults: Quotas;
    perTenant: ReadonlyMap<string, Quotas>;
    source: QuotaUsageSource;
    redis: RedisClient;
    prefix: string;
    pacing?: Partial<PacerOptions>;
    clock?: () => number;
  }) {
    this.#pacer = new RequestPacer(options.pacing);
    this.#clock = options.clock ?? (() => performance.now());
    this.#defaults = options.defaults;
    this.#perTenant = options.perTenant;
    this.#source = options.source;
    this.#redis = options.redis;
    this.#keys = new RedisKeys(options.prefix);
  }

  limits(tenant: string): Quotas {
    return this.#perTenant.get(tenant) ?? this.#defaults;
  }

  /**
   * Before opening a session: its count. Its stored bytes (`sessionBytes`) are checked and counted
   * where it is stored (`SessionStore.create`), so sessions opened at once cannot pass them together.
   */
  async admitSession(tenant: string): Promise<void> {
    const limit = this.limits(tenant).sessions;
    const open = await this.#source.sessions(tenant);
    if (open >= limit) throw new QuotaExceededError('sessions', limit, `the tenant has ${open} open sessions`);
  }

  /**
   * Before the tenant registers (or replaces) one of its own toolsets: the usage once `toolset`
   * replaces what `replaced` held under the same id.
   */
  admitToolset(
    tenant: string,
    toolset: { tools: number; bytes: number; mcp: boolean },
    replaced: { tools: number; bytes: number } | undefined,
  ): void {
    const limits = this.limits(tenant);
    const usage = this.#source.toolsets(tenant);
    const after = {
      toolsets: usage.toolsets + (replaced === undefined ? 1 : 0),
      tools: usage.tools - (replaced?.tools ?? 0) + toolset.tools,
      bytes: usage.bytes - (replaced?.bytes ?? 0) + toolset.bytes,
      mcpServers: usage.mcpServers + (toolset.mcp && replaced === undefined ? 1 : 0),
    };
    if (toolset.mcp && after.mcpServers > limits.mcpServers)
      throw new QuotaExceededError('mcpServers', limits.mcpServers, `the tenant has ${usage.mcpServers} MCP servers`);
    if (after.toolsets > limits.toolsets)
      throw new QuotaExceededError('toolsets', limits.toolsets, `the tenant has ${usage.toolsets} toolsets`);
    if (after.tools > limits.tools)
      throw new QuotaExceededError('tools', limits.tools, `this would make ${after.tools} tools`);
    if (after.bytes > limits.toolsetBytes)
      throw new QuotaExceededError(
        'toolsetBytes',
        limits.toolsetBytes,
        `this would make ${after.bytes} bytes of toolsets`,
      );
  }

  /** Whether one more call of the tenant may be held; the error to report when not. */
  async admitHold(tenant: string): Promise<QuotaExceededError | undefined> {
    const limit = this.limits(tenant).heldApprovals;
    const held = await this.#source.heldApprovals(tenant);
    return held >= limit
      ? new QuotaExceededError('heldApprovals', limit, `the tenant has ${held} calls waiting for a decision`)
      : undefined;
  }

  /**
   * The refusal for a request of a tenant whose window of this second is already full, without
   * counting it: only verified requests fill a window, so no one else can fill a tenant's. One
   * refusal object per window, so that a flood of refused requests costs no error object each.
   */
  refuseEarly(tenant: string, now = Date.now(), headroom = 1): QuotaExceededError | undefined {
    // A tenant so far ahead of its pace that its next request could not wait for its slot
    // (decisions, with headroom, are not paced).
    if (
      headroom === 1 &&
      this.#pacer.delay(tenant, this.limits(tenant).requestsPerSecond, 1, this.#clock()) === 'too-far-behind'
    )
      return this.#paceRefusal(tenant, 'too-far-behind');
    const counter = this.#windows.get(tenant);
    if (counter === undefined || counter.window !== Math.floor(now / 1000)) return undefined;
    const limit = this.limits(tenant).requestsPerSecond;
    if (counted(counter) < limit * headroom) return undefined;
    counter.refusal ??= new QuotaExceededError(
      'requestsPerSecond',
      limit,
      'too many requests in this second; retry in a moment',
    );
    return counter.refusal;
  }

  /**
   * The refusal of a request that gets no slot in its tenant's pace. Refusals before the payload
   * is read (no weight known) are one object per tenant and reason; a request's own says its weight.
   */
  #paceRefusal(tenant: string, why: PaceRefusal, weight?: number): QuotaExceededError {
    const key = `${why}:${tenant}`;
    const cached = weight === undefined ? this.#paceRefusals.get(key) : undefined;
    if (cached !== undefined) return cached;
    const limit = this.limits(tenant).requestsPerSecond;
    const counts = weight === undefined ? '' : `; this one counts ${Math.min(weight, limit)}`;
    const refusal = new QuotaExceededError(
      'requestsPerSecond',
      limit,
      why === 'too-far-behind'
        ? `too many requests at once: a tenant's requests are spread over each second (${this.#pacer.burst(limit)} at once, the rest evenly${counts}); retry in a moment`
        : why === 'too-many-waiting'
          ? `too many of this tenant's requests, or too many bytes of them, are already waiting for their turn${counts}; retry in a moment`
          : `the daemon has too many requests waiting for their turn${counts}; retry in a moment`,
    );
    if (weight === undefined) {
      if (this.#paceRefusals.size >= 4096) this.#paceRefusals.clear();
      this.#paceRefusals.set(key, refusal);
    }
    return refusal;
  }

  /**
   * The tenant's counter for `window` (a new one when its last was of an earlier second). A new
   * window first counts up to a second's worth of what the tenant owes here (`charge`).
   */
  #windowOf(tenant: string, window: number) {
    let counter = this.#windows.get(tenant);
    if (counter === undefined || counter.window !== window) {
      // What the last second counted here and has not sent yet (its charges owe debt) goes with the next sync.
      if (counter !== undefined && (counter.pending > 0 || counter.debt > 0)) this.#retired.push([tenant, counter]);
      const debt = this.#debts.owed(tenant, this.limits(tenant).requestsPerSecond);
      counter = { window, pending: 0, sending: 0, unsynced: 0, shared: 0, debt, charged: 0 };
      this.#windows.set(tenant, counter);
      if (debt > 0) this.#timer ??= setTimeout(() => void this.#sync(), SYNC_MS);
    }
    return counter;
  }

  /** Milliseconds until the current one-second window of requests per second ends. */
  windowLeftMs(now = Date.now()): number {
    return 1000 - (now % 1000);
  }

  /**
   * Counts a request (at `weight`) against the tenant's requests per second; throws when the window
   * is full (`headroom` times the limit for an approver's decision: `DECISIONS`).
   */
  admitRequest(tenant: string, now = Date.now(), requestWeight = 1, headroom = 1): void {
    const limit = this.limits(tenant).requestsPerSecond;
    // A limit under a request's weight still lets one such request through per second.
    const weight = Math.min(requestWeight, limit);
    const window = Math.floor(now / 1000);
    const counter = this.#windowOf(tenant, window);
    if (counted(counter) + weight > limit * headroom)
      throw new QuotaExceededError(
        'requestsPerSecond',
        limit,
        `too many requests in this second (this one counts ${weight}); retry in a moment`,
      );
    counter.pending += weight;
    this.#timer ??= setTimeout(() => void this.#sync(), SYNC_MS);
  }

  /**
   * Counts work a request turned out to cost beyond its weight (a grant's pattern tests, known
   * only once its toolsets are looked up) against the tenant's requests per second, without
   * refusing: the work is done, and the tenant's next requests wait for it instead. What does not
   * fit in this second is owed and counted in the seconds after it (`#windowOf`), so costly work
   * — a search engine for a new catalog costs more than a second's worth at the default limit —
   * is paid however it is spread, and a tenant cannot buy much more of the daemon's time than its
   * limit by causing builds (at most five seconds' worth is carried, so that a tenant's approvers
   * are never refused for long).
   */
  charge(tenant: string, weight: number, now = Date.now()): void {
    if (weight <= 0) return;
    const window = Math.floor(now / 1000);
    const counter = this.#windowOf(tenant, window);
    counter.pending += weight;
    const limit = this.limits(tenant).requestsPerSecond;
    counter.charged += weight;
    // An estimate for this replica's next windows; the sync lets Redis work out the real debt.
    this.#debts.owe(tenant, Math.min(weight, counted(counter) - limit), MAX_DEBT_SECONDS * limit);
    // At most a second's worth (`take` caps it): a costly open slows its tenant for a second, not longer.
    this.#pacer.take(tenant, this.limits(tenant).requestsPerSecond, weight, this.#clock());
    this.#timer ??= setTimeout(() => void this.#sync(), SYNC_MS);
  }

  /** Adds the local counts to the shared windows and learns the totals of every replica. */
  async #sync(): Promise<void> {
    this.#timer = undefined;
    const batch = [...this.#retired.splice(0), ...this.#windows.entries()].filter(
      ([, counter]) => counter.pending > 0 || counter.debt > 0,
    );
    if (batch.length === 0) return;
    const current = Math.floor(Date.now() / 1000);
    const sent = batch.map(([, counter]) => ({ count: counter.pending, debt: counter.debt, charged: counter.charged }));
    // Until Redis answers, what is sent still counts here: the window must not look emptier
    // while the increment is on its way (the debt counted at the window's start included).
    batch.forEach(([, counter]) => {
      counter.sending += counter.pending + counter.debt;
      counter.pending = 0;
      counter.debt = 0;
      counter.charged = 0;
    });
    // One script per tenant (its keys are under its hash tag, so each stays in one Redis Cluster
    // slot); auto-pipelining sends them together.
    await Promise.all(
      batch.map(async ([tenant, counter], index) => {
        const window = this.#keys.tenant(tenant, 'rps', String(counter.window));
        const debtKey = this.#keys.tenant(tenant, 'rps-debt');
        const { count, debt, charged } = sent[index] ?? { count: 0, debt: 0, charged: 0 };
        const limit = this.limits(tenant).requestsPerSecond;
        try {
          const reply = (await PAY_SCRIPT.run(
            this.#redis,
            2,
            window,
            debtKey,
            count,
            charged,
            limit,
            5_000,
            MAX_DEBT_SECONDS * limit,
            DEBT_EXPIRY_MS,
            // A second that is over holds no one: debt is only added to it, never paid into it.
            counter.window >= current ? '1' : '0',
          )) as unknown[];
          const [total, , owed] = reply.map(Number);
          if (total === undefined || owed === undefined || !Number.isFinite(total) || !Number.isFinite(owed))
            throw new Error('no total');
          this.#debts.heard(tenant, owed);
          // Every replica's requests of this window so far, ours included (what we counted since
          // is pending), and the debt moved into it. Redis's total lacks what an earlier, failed
          // sync kept here: add it back.
          counter.shared = Math.max(counter.shared, total + counter.unsynced);
        } catch {
          // Redis away: keep the counts local (each replica then enforces the limit on its own
          // share) and the estimated debt here, less what this window counted of it.
          this.#debts.paidLocally(tenant, debt);
          counter.shared += count + debt;
          counter.unsynced += count + debt;
        } finally {
          counter.sending -= count + debt;
        }
      }),
    );
    for (const [tenant, counter] of this.#windows)
      if (counter.window < Math.floor(Date.now() / 1000) - 1) this.#windows.delete(tenant);
  }

  /**
   * Wraps every handler so that each request of a verified caller counts (at its weight) against
   * its tenant's requests per second: paced and refused past it, or for an approver's decision
   * (`DECISIONS`) refused only past `DECISION_HEADROOM` times it.
   */
  wrap(handlers: Record<EndpointName, GuardedHandler>): Record<EndpointName, GuardedHandler> {
    const wrapped = {} as Record<EndpointName, GuardedHandler>;
    for (const name of Object.keys(handlers) as EndpointName[]) {
      const handler = handlers[name];
      const weight = REQUEST_WEIGHTS[name] ?? 1;
      const paced = !UNPACED.has(name);
      const decision = DECISIONS.has(name);
      wrapped[name] = async (params, payload, caller, request) => {
        const requestWeight = typeof weight === 'number' ? weight : weight(payload);
        if (decision) this.admitDecision(params.tenant, requestWeight);
        else await this.admit(params.tenant, requestWeight, { bytes: request?.bytes ?? 0, paced });
        return handler(params, payload, caller, request);
      };
    }
    return wrapped;
  }

  /** Counts an approver's decision: refused only past `DECISION_HEADROOM` seconds' worth, never paced. */
  admitDecision(tenant: string, weight = 1): void {
    this.admitRequest(tenant, Date.now(), weight, DECISION_HEADROOM);
  }

  /**
   * Admits one request of a verified caller: counts it (at `weight`) against its tenant's
   * requests per second and, past the tenant's burst, waits for its turn (holding `bytes` of
   * payload meanwhile) while other tenants' requests run. Throws `QuotaExceededError` when the
   * window is full or no turn is near enough; `RequestError` `UNAVAILABLE` when the daemon stops
   * while it waits. `paced: false` counts without waiting (toolset changes, above).
   */
  async admit(tenant: string, weight: number, options: { bytes?: number; paced?: boolean } = {}): Promise<void> {
    const limit = this.limits(tenant).requestsPerSecond;
    const at = this.#clock();
    const bytes = options.bytes ?? 0;
    const wait = options.paced === false ? 0 : this.#pacer.delay(tenant, limit, weight, at, bytes);
    if (typeof wait === 'string') throw this.#paceRefusal(tenant, wait, weight);
    this.admitRequest(tenant, Date.now(), weight);
    this.#pacer.take(tenant, limit, weight, at);
    if (wait === 0) return;
    await this.#pacer.wait(tenant, wait, bytes);
    if (this.#pacer.closed)
      throw new RequestError(WIRE_ERROR_CODES.UNAVAILABLE, 'the daemon is stopping; retry in a moment.');
  }

  /** Wakes the requests waiting for their turn, to be answered `UNAVAILABLE` (the daemon is stopping). */
  stopPacing(): void {
    this.#pacer.close();
  }

  /** The tenant's usage of every quota, for operators. */
  async report(tenant: string): Promise<QuotaReport> {
    const limits = this.limits(tenant);
    const toolsets = this.#source.toolsets(tenant);
    const counter = this.#windows.get(tenant);
    const current = counter?.window === Math.floor(Date.now() / 1000) ? counted(counter) : 0;
    return {
      sessions: { used: await this.#source.sessions(tenant), limit: limits.sessions },
      sessionBytes: { used: await this.#source.sessionBytes(tenant), limit: limits.sessionBytes },
      toolsets: { used: toolsets.toolsets, limit: limits.toolsets },
      tools: { used: toolsets.tools, limit: limits.tools },
      toolsetBytes: { used: toolsets.bytes, limit: limits.toolsetBytes },
      mcpServers: { used: toolsets.mcpServers, limit: limits.mcpServers },
      heldApprovals: { used: await this.#source.heldApprovals(tenant), limit: limits.heldApprovals },
      requestsPerSecond: { used: current, limit: limits.requestsPerSecond },
    };
  }

  stop(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
