import { JSONCodec, type NatsConnection } from 'nats';
import type { Logger } from 'pino';
import { EVENTS, subject } from '@toolsearch/proto';
import type { FanoutScheduler } from './fanout-scheduler';
import type { RegistryChange, ToolsetRegistry } from './registry.adapter';
import type { ActivationLatch } from './activation-latch';
import type { SessionActors } from './session-actors';
import { grantReaches } from './grant';
import type { SessionDescriptor, SessionStore } from './session-store.adapter';
import type { SurfaceBuilder } from './surface';

const codec = JSONCodec<unknown>();

/**
 * How long to wait before retrying tier events that could not be settled, when no Redis `ready`
 * event comes first (a command that timed out on a connection that never dropped).
 */
const RETRY_MS = 5000;

/**
 * The least time between the starts of two passes over one tenant's stored sessions: a second,
 * or as long as the tenant's re-assembly budget takes for as many sessions as the last pass
 * listed, at most 10 s. A pass lists every stored id of the tenant (20,000 a second, while a tenant
 * with 20,000 sessions put toolsets without pause), most of them held here and skipped.
 */
const SCAN_INTERVAL_MIN_MS = 1000;
const SCAN_INTERVAL_MAX_MS = 10_000;

/**
 * The least time between the starts of two walks over one tenant's held sessions, per session
 * held: 0.05 ms, so 1,000 sessions are walked at most every 50 ms and 20,000 at most once a second
 * (WALK_SPACING_MAX_MS). Walks run back to back while a tenant keeps putting toolsets; each visits
 * every held session, and a tenant with 20,000 sessions putting 100 toolsets a second kept the
 * daemon checking two million sessions a second, and other tenants' requests waited behind it.
 * Changes arriving meanwhile are told together by the next walk. A walk itself runs no faster than
 * its tenant's re-assemblies (FanoutScheduler's `walkAhead`): 20,000 sessions take ten seconds at
 * the default budget, so for large tenants the walk's own length spaces the walks.
 */
const WALK_SPACING_MS_PER_SESSION = 0.05;
const WALK_SPACING_MAX_MS = 1000;

/** What the fan-out reads and publishes through. */
export interface TierFanoutDeps {
  readonly nc: NatsConnection;
  readonly store: SessionStore;
  readonly registry: ToolsetRegistry;
  readonly surfaces: SurfaceBuilder;
  readonly actors: SessionActors;
  /** Keeps a budget-gated session on once a re-assembly turned it on. */
  readonly latch: ActivationLatch;
  /** Where re-assemblies, and the walks that tell held sessions of a change, run in slices. */
  readonly reassembly: FanoutScheduler;
  readonly log: Logger;
}

/**
 * Turns toolset changes into tier events: every session of the tenant that the change touches is
 * re-assembled, and a session whose surface (hash) changed gets one `evt.tier`, once across all
 * replicas (the hash swap in Redis decides who publishes).
 *
 * A change applied while Redis is down cannot swap the hash, so its event would be lost: the
 * registry already serves the new toolset (assemble shows the new hash) but MCP clients never hear
 * `list_changed`. Such changes and sessions are remembered and settled again when Redis is back
 * (its `ready` event), after the next operation that succeeds, or on a timer; the swap then
 * compares the stored hash with the current one and publishes exactly the events still owed.
 *
 * A tenant putting toolsets as fast as it may, with thousands of sessions, must not cost others:
 * changes are coalesced per tenant. Held sessions are told by one walk per tenant at a time (the
 * changes arriving during a walk are told together by the next, which starts no sooner than the
 * tenant's held sessions call for), and the store is scanned by one pass per tenant at a time, in
 * SSCAN batches; changes arriving meanwhile make one more pass, not one each.
 */
export class TierFanout {
  readonly #deps: TierFanoutDeps;
  /** Tenant → toolsets whose fan-out failed before reaching every session (listing the store failed). */
  readonly #owedChanges = new Map<string, Set<string>>();
  /** `tenant\u0000id` → a session whose re-assembly or hash swap failed. */
  readonly #owedSessions = new Map<string, { tenant: string; id: string }>();
  /** Tenant → toolsets its held sessions are still to be told about (by the next walk). */
  readonly #toTell = new Map<string, Set<string>>();
  /** Tenants whose walk is running or waiting for its start (WALK_SPACING_MS_PER_SESSION). */
  readonly #telling = new Set<string>();
  /** Tenant → when its last walk started (performance.now()). */
  readonly #walkStarted = new Map<string, number>();
  readonly #walkTimers = new Set<NodeJS.Timeout>();
  /** Tenant → toolsets still to look for in the store, while a pass over it is running. */
  readonly #scanning = new Map<string, Set<string>>();
  #settling: Promise<void> | undefined;
  #timer: NodeJS.Timeout | undefined;
  readonly #stopListening: () => void;

  constructor(deps: TierFanoutDeps) {
    this.#deps = deps;
    this.#stopListening = deps.store.onReady(() => this.#settleOwed());
  }

  publishToolsetChanged(tenant: string, toolset: string, revision: number, deleted: boolean): void {
    this.#deps.nc.publish(
      subject(EVENTS.toolsetChanged.template, { tenant }),
      codec.encode({ tenant, toolset, revision, deleted }),
    );
  }

  /** A registry change (from any replica or writer): every open session of the tenant is told. */
  onRegistryChange(change: RegistryChange): void {
    const { tenant, toolsetId } = change;
    // Sessions in memory first: each decides (its grant) and re-assembles through the scheduler.
    let toTell = this.#toTell.get(tenant);
    if (toTell === undefined) this.#toTell.set(tenant, (toTell = new Set()));
    toTell.add(toolsetId);
    if (!this.#telling.has(tenant)) this.#walk(tenant);
    // Then the sessions only Redis holds (opened on other replicas, or dropped from memory here).
    const pass = this.#scanning.get(tenant);
    if (pass !== undefined) {
      pass.add(toolsetId);
      return;
    }
    this.#scanning.set(tenant, new Set([toolsetId]));
    void this.#scanPasses(tenant);
  }

  /**
   * Tells the tenant's held sessions of every toolset changed since the last walk began, one walk
   * at a time: a change during a walk waits for the next (restarting it instead starved the
   * sessions late in the walk while a tenant kept putting). Walks of a tenant start no closer
   * together than its held sessions call for (WALK_SPACING_MS_PER_SESSION).
   */
  #walk(tenant: string): void {
    const pending = this.#toTell.get(tenant);
    if (pending === undefined || pending.size === 0) {
      this.#toTell.delete(tenant);
      this.#telling.delete(tenant);
      this.#forgetOldWalks();
      return;
    }
    this.#telling.add(tenant);
    const spacing = Math.min(WALK_SPACING_MAX_MS, this.#deps.actors.heldBy(tenant) * WALK_SPACING_MS_PER_SESSION);
    const wait = (this.#walkStarted.get(tenant) ?? -Infinity) + spacing - performance.now();
    if (wait >= 1) {
      const timer = setTimeout(() => {
        this.#walkTimers.delete(timer);
        this.#startWalk(tenant);
      }, wait).unref();
      this.#walkTimers.add(timer);
      return;
    }
    this.#startWalk(tenant);
  }

  #startWalk(tenant: string): void {
    const toolsets = this.#toTell.get(tenant) ?? new Set<string>();
    this.#toTell.delete(tenant);
    this.#walkStarted.set(tenant, performance.now());
    this.#deps.reassembly.walk(tenant, this.#deps.actors.toolsetsChanged(tenant, [...toolsets]), () =>
      this.#walk(tenant),
    );
  }

  /** Keeps the start times of idle tenants' walks only while they can still delay a walk. */
  #forgetOldWalks(): void {
    if (this.#walkStarted.size < 1024) return;
    const now = performance.now();
    for (const [tenant, started] of this.#walkStarted)
      if (!this.#telling.has(tenant) && now - started >= WALK_SPACING_MAX_MS) this.#walkStarted.delete(tenant);
  }

  /**
   * Passes over the tenant's stored sessions until no change is left for it, spaced by
   * SCAN_INTERVAL_MIN_MS – SCAN_INTERVAL_MAX_MS: a tenant putting toolsets without pause otherwise
   * kept a pass over its 20,000 stored ids running back to back.
   */
  async #scanPasses(tenant: string): Promise<void> {
    for (let started = 0, interval = SCAN_INTERVAL_MIN_MS; ; ) {
      const wait = started + interval - performance.now();
      if (started > 0 && wait > 0) await new Promise((resolve) => setTimeout(resolve, wait).unref());
      const toolsets = this.#scanning.get(tenant);
      if (toolsets === undefined || toolsets.size === 0) {
        this.#scanning.delete(tenant);
        break;
      }
      started = performance.now();
      this.#scanning.set(tenant, new Set());
      try {
        const listed = await this.#fanOutFromStore(tenant, toolsets, true, (descriptor) =>
          this.#deps.reassembly.enqueue(descriptor),
        );
        const budgetMs = (listed / this.#deps.reassembly.perTenantPerSecond) * 1000;
        interval = Math.min(SCAN_INTERVAL_MAX_MS, Math.max(SCAN_INTERVAL_MIN_MS, budgetMs));
      } catch (error) {
        for (const toolset of toolsets) this.#owe(tenant, toolset);
        this.#deps.log.warn(
          { err: (error as Error).message, tenant },
          'could not fan out a toolset change; retrying when Redis answers',
        );
      }
    }
    this.#settleOwed();
  }

  /** Re-assembles one session and publishes its tier event if its surface changed. */
  async reassemble(descriptor: SessionDescriptor): Promise<void> {
    try {
      await this.#publishIfChanged(descriptor);
    } catch (error) {
      this.#oweSession(descriptor.tenant, descriptor.id);
      throw error;
    }
    this.#settleOwed();
  }

  /** Stops retrying and listening to Redis. Idempotent. */
  close(): void {
    for (const timer of this.#walkTimers) clearTimeout(timer);
    this.#walkTimers.clear();
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#stopListening();
  }

  /**
   * Loads the tenant's stored sessions whose grant holds one of `toolsets`, a batch at a time, and
   * hands each to `reach`; with `skipHeld`, sessions held here are left to their actors. Returns
   * how many ids the store listed.
   */
  async #fanOutFromStore(
    tenant: string,
    toolsets: ReadonlySet<string>,
    skipHeld: boolean,
    reach: (descriptor: SessionDescriptor) => unknown,
  ): Promise<number> {
    const { store, actors } = this.#deps;
    let listed = 0;
    for await (const batch of store.scanIds(tenant)) {
      listed += batch.length;
      const ids = skipHeld ? actors.notHeld(tenant, batch) : batch;
      for (const descriptor of await store.loadMany(tenant, ids))
        if (grantReaches(descriptor.grant, toolsets)) await reach(descriptor);
    }
    return listed;
  }

  async #publishIfChanged(descriptor: SessionDescriptor): Promise<void> {
    const { store, registry, nc, surfaces, latch } = this.#deps;
    const { result } = surfaces.build(descriptor, registry).assembly;
    await latch.note(descriptor, result);
    if (!(await store.swapHash(descriptor.tenant, descriptor.id, result.hash))) return;
    nc.publish(
      subject(EVENTS.sessionTier.template, { tenant: descriptor.tenant, session: descriptor.id }),
      codec.encode({
        tenant: descriptor.tenant,
        session: descriptor.id,
        tier: result.tier,
        listing_form: result.listing_form,
        deferred_count: result.deferred_count,
        listing_tokens: result.listing_tokens,
        hash: result.hash,
      }),
    );
  }

  #owe(tenant: string, toolset: string): void {
    let toolsets = this.#owedChanges.get(tenant);
    if (toolsets === undefined) this.#owedChanges.set(tenant, (toolsets = new Set()));
    toolsets.add(toolset);
    this.#retryLater();
  }

  #oweSession(tenant: string, id: string): void {
    this.#owedSessions.set(`${tenant}\u0000${id}`, { tenant, id });
    this.#retryLater();
  }

  #retryLater(): void {
    this.#timer ??= setTimeout(() => {
      this.#timer = undefined;
      this.#settleOwed();
    }, RETRY_MS).unref();
  }

  /** Settles what is owed, one pass at a time; a pass that fails puts the rest back for later. */
  #settleOwed(): void {
    if (this.#settling !== undefined || (this.#owedChanges.size === 0 && this.#owedSessions.size === 0)) return;
    this.#settling = this.#settlePass().finally(() => (this.#settling = undefined));
  }

  async #settlePass(): Promise<void> {
    const changes = [...this.#owedChanges];
    const sessions = [...this.#owedSessions.values()];
    this.#owedChanges.clear();
    this.#owedSessions.clear();
    for (const [index, [tenant, toolsets]] of changes.entries()) {
      try {
        // Every session of the change, held here or not: a held one whose hash is already
        // current is not published twice (the swap says nothing changed).
        await this.#fanOutFromStore(tenant, toolsets, false, (descriptor) => this.reassemble(descriptor));
      } catch {
        for (const [owedTenant, owed] of changes.slice(index)) for (const id of owed) this.#owe(owedTenant, id);
        for (const session of sessions) this.#oweSession(session.tenant, session.id);
        return;
      }
    }
    for (const [index, { tenant, id }] of sessions.entries()) {
      try {
        // The stored descriptor: the session may have closed (nothing owed) or changed meanwhile.
        const descriptor = await this.#deps.store.load(tenant, id);
        if (descriptor !== undefined) await this.#publishIfChanged(descriptor);
      } catch {
        for (const session of sessions.slice(index)) this.#oweSession(session.tenant, session.id);
        return;
      }
    }
    this.#deps.log.info({ changes: changes.length, sessions: sessions.length }, 'owed tier events settled');
  }
}
