import { z } from 'zod';
import type { UsageSignal } from '@toolsearch/bridge';
import { RecencyList, UsageBoostRegistry, type RecencyLinks, type UsageBoosts } from '@toolsearch/search';
import type { StepResult } from './dispatch/found-names';

/**
 * `learnFromUse`: the bounds of learning from use (issue 21). Which tenants learn is each tenant's
 * own choice (`tenants.<id>.learnFromUse: true`); these keys only bound what an opted-in tenant holds.
 */
export const LearnFromUseSchema = z
  .object({
    /** A (query terms → tool) observation counts half after this long. */
    halfLifeMs: z
      .number()
      .int()
      .min(60_000)
      .max(365 * 86_400_000)
      .default(7 * 86_400_000),
    /** Distinct query terms kept per tenant; the least recently used go first. */
    maxTerms: z.number().int().min(16).max(1_000_000).default(4096),
    /** Tools kept per term; the weakest go first. */
    maxToolsPerTerm: z.number().int().min(1).max(64).default(8),
    /** How long a session's last search may be followed by the call it leads to. */
    searchMemoryMs: z.number().int().min(1000).max(86_400_000).default(600_000),
    /**
     * Sessions whose last search one replica remembers at once; past it, the oldest search of the
     * tenant that holds the most goes first (so one tenant's searches never push out a smaller
     * tenant's, and a tenant alone may use them all).
     */
    maxSessions: z.number().int().min(1).max(10_000_000).default(20_000),
  })
  .strict();
export type LearnFromUseSettings = z.infer<typeof LearnFromUseSchema>;

/** A search group as `tool_search` answers it: the query and the tools it returned. */
interface SearchGroup {
  readonly query: string;
  readonly matches: readonly string[];
}

/** A session's last search; the entry is updated in place by the session's next search. */
interface LastSearch extends RecencyLinks<LastSearch> {
  /** `<tenant>\0<session>`. */
  readonly key: string;
  readonly tenant: string;
  at: number;
  /** Per query (at most `KEPT_QUERY_CHARS` of it), the tools it returned (none: nothing to credit). */
  groups: readonly SearchGroup[];
  /** Tools already credited to this search: each counts once per search. */
  credited?: Set<string>;
}

/**
 * Characters of a query kept with a session's last search. The record uses a query's first 16
 * terms (`UsageBoostOptions.maxQueryTerms`), which fit in far fewer in any ordinary query; keeping
 * 200 instead of the 1,000 a query may have bounds the worst session at 7 queries × 200 characters
 * plus 7 × 50 tool names (references to names the catalog holds anyway).
 */
const KEPT_QUERY_CHARS = 200;

/**
 * Learning from use in the daemon: for tenants that opted in, a successful call of a tool that the
 * session's last search returned (within `searchMemoryMs`) records (that search's query → tool) in
 * the tenant's `UsageBoosts`, which later searches of the tenant rank with. The signal is honest on
 * purpose: only a tool the search offered counts, once per search, and only a call that did not
 * fail. One tenant's record never serves another; what a search gets from it is a boost per tool
 * name, so no session's words reach another session's answer.
 *
 * In memory, per replica: each replica learns from the searches and calls it serves (a call served
 * by another replica than its search is not credited) and forgets on restart. The sessions' last
 * searches are bounded by `maxSessions` (the largest tenant gives way first) and by
 * `searchMemoryMs`, and dropped when a session closes;
 * the records by the opted-in tenants (from the config) × `maxTerms` × `maxToolsPerTerm`.
 */
export class UsageLearning {
  readonly #registry: UsageBoostRegistry;
  readonly #optedIn: ReadonlySet<string>;
  readonly #settings: LearnFromUseSettings;
  readonly #now: () => number;
  /** Keyed `<tenant>\0<session>`. */
  readonly #last = new Map<string, LastSearch>();
  /**
   * The same entries per tenant, oldest search first. Not the Map's own order: deleting and
   * re-adding a session's key on every search grows V8's hash bucket of that key (see
   * `RecencyList`). Per tenant, so that past `maxSessions` the tenant holding the most gives way.
   */
  readonly #orders = new Map<string, RecencyList<LastSearch>>();

  constructor(options: {
    settings: LearnFromUseSettings;
    /** The tenants that opted in (`tenants.<id>.learnFromUse`). */
    tenants: Iterable<string>;
    now?: () => number;
  }) {
    this.#settings = options.settings;
    this.#now = options.now ?? Date.now;
    const { halfLifeMs, maxTerms, maxToolsPerTerm } = options.settings;
    this.#registry = new UsageBoostRegistry({ halfLifeMs, maxTerms, maxToolsPerTerm });
    this.#optedIn = new Set(options.tenants);
    for (const tenant of this.#optedIn) this.#registry.setOptIn(tenant, true);
  }

  /** Sessions whose last search is remembered (for tests and metrics). */
  get rememberedSessions(): number {
    return this.#last.size;
  }

  /** What a search of the tenant ranks with; undefined when it has not opted in. */
  signal(tenant: string): UsageSignal | undefined {
    const boosts = this.#boosts(tenant);
    return boosts === undefined ? undefined : { boosts, now: this.#now() };
  }

  /** Remembers the session's search (replacing its previous one); `result` is a `tool_search` result. */
  noteSearch(tenant: string, session: string, result: unknown): void {
    if (!this.#optedIn.has(tenant)) return;
    const groups = searchGroups(result).filter((group) => group.matches.length > 0);
    const key = sessionKey(tenant, session);
    const now = this.#now();
    const order = this.#orderOf(tenant);
    this.#sweep(order, now);
    let last = this.#last.get(key);
    if (groups.length === 0) {
      // A search that returned nothing still ends the previous one: no later call is credited to it.
      if (last !== undefined) this.#drop(last);
      return;
    }
    if (last === undefined) {
      last = { key, tenant, at: now, groups, older: undefined, newer: undefined, listed: false };
      this.#last.set(key, last);
    } else {
      last.at = now;
      last.groups = groups;
      delete last.credited;
    }
    order.touch(last);
    while (this.#last.size > this.#settings.maxSessions && this.#dropFromLargest());
  }

  /** Notes that the session called `tool` and it succeeded: credited to the last search that offered it. */
  noteCalled(tenant: string, session: string, tool: string): void {
    const boosts = this.#boosts(tenant);
    if (boosts === undefined) return;
    const key = sessionKey(tenant, session);
    const last = this.#last.get(key);
    if (last === undefined) return;
    const now = this.#now();
    if (now - last.at > this.#settings.searchMemoryMs) {
      this.#drop(last);
      return;
    }
    if (last.credited?.has(tool) === true) return;
    let offered = false;
    for (const group of last.groups) {
      if (!group.matches.includes(tool)) continue;
      boosts.record(group.query, tool, now);
      offered = true;
    }
    if (offered) (last.credited ??= new Set()).add(tool);
  }

  /**
   * Reads a turn's steps in order: a `tool_search` that answered becomes the session's last search,
   * a tool that ran and succeeded is credited to it. A search and a call in one turn count too.
   */
  noteTurn(tenant: string, session: string, results: readonly StepResult[]): void {
    if (!this.#optedIn.has(tenant)) return;
    for (const { step, envelope } of results) {
      if (!envelope.ok) continue;
      if (step.kind === 'lookup' && step.name === 'tool_search') this.noteSearch(tenant, session, envelope.data);
      else if (step.kind === 'tool') this.noteCalled(tenant, session, step.call.tool.name);
    }
  }

  /** Drops what the closed session left (its last search). */
  forget(tenant: string, session: string): void {
    const last = this.#last.get(sessionKey(tenant, session));
    if (last !== undefined) this.#drop(last);
  }

  #drop(last: LastSearch): void {
    this.#last.delete(last.key);
    this.#orders.get(last.tenant)?.remove(last);
  }

  /**
   * Drops the oldest search of the tenant holding the most (opted-in tenants are few: a scan);
   * false when there was none to drop.
   */
  #dropFromLargest(): boolean {
    let largest: RecencyList<LastSearch> | undefined;
    for (const order of this.#orders.values()) if (largest === undefined || order.size > largest.size) largest = order;
    for (const oldest of largest?.fromOldest() ?? []) {
      this.#drop(oldest);
      return true;
    }
    return false;
  }

  #orderOf(tenant: string): RecencyList<LastSearch> {
    let order = this.#orders.get(tenant);
    if (order === undefined) {
      order = new RecencyList<LastSearch>();
      this.#orders.set(tenant, order);
    }
    return order;
  }

  #boosts(tenant: string): UsageBoosts | undefined {
    return this.#optedIn.has(tenant) ? this.#registry.forTenant(tenant) : undefined;
  }

  /**
   * Drops a tenant's searches too old to be credited: the oldest are first, so this stops at the
   * first fresh one. (Another tenant's stale searches wait for its next search, within its share.)
   */
  #sweep(order: RecencyList<LastSearch>, now: number): void {
    for (const last of order.fromOldest()) {
      if (now - last.at <= this.#settings.searchMemoryMs) return;
      this.#drop(last);
    }
  }
}

function sessionKey(tenant: string, session: string): string {
  return `${tenant}\u0000${session}`;
}

/** The groups of a `tool_search` result; anything else gives none. */
function searchGroups(result: unknown): SearchGroup[] {
  const results = (result as { results?: unknown } | null)?.results;
  if (!Array.isArray(results)) return [];
  const groups: SearchGroup[] = [];
  for (const group of results as unknown[]) {
    const { query, matches } = (group ?? {}) as { query?: unknown; matches?: unknown };
    if (typeof query !== 'string' || !Array.isArray(matches)) continue;
    const names = matches.filter((name): name is string => typeof name === 'string');
    groups.push({ query: query.slice(0, KEPT_QUERY_CHARS), matches: names });
  }
  return groups;
}
