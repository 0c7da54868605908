import { analyzeQuery } from './analyzer';
import type { SearchHit } from './search-types';
import { RecencyList, type RecencyLinks } from '@toolsearch/catalog';

/** Bounds and decay of one tenant's record of what it called after searching. */
export interface UsageBoostOptions {
  /** Distinct query terms kept; the least recently used go first. */
  readonly maxTerms: number;
  /** Tools kept per term; the weakest go first. */
  readonly maxToolsPerTerm: number;
  /** Terms of one query that are recorded or looked up (the first ones). */
  readonly maxQueryTerms: number;
  /** An observation counts half after this long. */
  readonly halfLifeMs: number;
  /** How much a fully learned association adds: score × (1 + weight × boost). */
  readonly weight: number;
}

export const DEFAULT_USAGE_BOOSTS: UsageBoostOptions = {
  maxTerms: 4096,
  maxToolsPerTerm: 8,
  maxQueryTerms: 16,
  halfLifeMs: 7 * 24 * 3600 * 1000,
  weight: 1,
};

interface Entry {
  value: number;
  at: number;
}

/** A term's tools, linked into the recency order of terms. */
interface TermRecord extends RecencyLinks<TermRecord> {
  readonly term: string;
  readonly tools: Map<string, Entry>;
}

/**
 * One tenant's learned ranking signal: which tools were actually called (successfully) after a
 * search with which query terms, with exponential decay. Holds analysed terms (stems), never query
 * text, and no session ids: what it returns is a boost per tool name, so one session's words cannot
 * reach another's answer. One instance per tenant (`UsageBoostRegistry`): tenants never share one.
 * Memory is bounded by `maxTerms × maxToolsPerTerm` entries.
 */
export class UsageBoosts {
  readonly options: UsageBoostOptions;
  readonly #terms = new Map<string, TermRecord>();
  /**
   * The same records, least recently recorded first. Not the Map's own order: deleting and
   * re-adding a term on every record left a deleted entry in the term's hash bucket each time, and
   * each re-add walked them all (84 µs a record after 60,000 among 19,000 terms; `RecencyList`).
   */
  readonly #order = new RecencyList<TermRecord>();

  constructor(options: Partial<UsageBoostOptions> = {}) {
    this.options = { ...DEFAULT_USAGE_BOOSTS, ...options };
  }

  /** How many terms are held. */
  get size(): number {
    return this.#terms.size;
  }

  /** Notes that after searching `query`, `tool` was called and did not fail. */
  record(query: string, tool: string, at: number): void {
    for (const term of this.#termsOf(query)) {
      let record = this.#terms.get(term);
      if (record === undefined) {
        record = { term, tools: new Map(), older: undefined, newer: undefined, listed: false };
        this.#terms.set(term, record);
      }
      this.#order.touch(record);
      const { tools } = record;
      const entry = tools.get(tool);
      if (entry !== undefined) {
        entry.value = this.#decayed(entry, at) + 1;
        entry.at = at;
      } else {
        if (tools.size >= this.options.maxToolsPerTerm) this.#dropWeakest(tools, at);
        tools.set(tool, { value: 1, at });
      }
    }
    for (const oldest of this.#order.fromOldest()) {
      if (this.#terms.size <= this.options.maxTerms) break;
      this.#terms.delete(oldest.term);
      this.#order.remove(oldest);
    }
  }

  /**
   * Per tool, a boost in (0, 1]: the mean over the query's terms of the tool's decayed share of
   * that term's calls. Tools never called after such terms are absent.
   */
  boosts(query: string, at: number): Map<string, number> {
    const terms = this.#termsOf(query);
    const out = new Map<string, number>();
    if (terms.length === 0) return out;
    for (const term of terms) {
      const tools = this.#terms.get(term)?.tools;
      if (tools === undefined) continue;
      let total = 0;
      for (const entry of tools.values()) total += this.#decayed(entry, at);
      if (total <= 0) continue;
      for (const [tool, entry] of tools) {
        // Saturating in the amount of evidence: one call is a hint, several a habit.
        const share = (this.#decayed(entry, at) / total) * (1 - Math.exp(-total));
        out.set(tool, (out.get(tool) ?? 0) + share / terms.length);
      }
    }
    return out;
  }

  #termsOf(query: string): string[] {
    return [...new Set(analyzeQuery(query.slice(0, 2000)))].slice(0, this.options.maxQueryTerms);
  }

  #decayed(entry: Entry, at: number): number {
    const age = Math.max(0, at - entry.at);
    return entry.value * Math.pow(0.5, age / this.options.halfLifeMs);
  }

  #dropWeakest(tools: Map<string, Entry>, at: number): void {
    let weakest: string | undefined;
    let least = Number.POSITIVE_INFINITY;
    for (const [tool, entry] of tools) {
      const value = this.#decayed(entry, at);
      if (value < least) {
        least = value;
        weakest = tool;
      }
    }
    if (weakest !== undefined) tools.delete(weakest);
  }
}

/**
 * Re-orders a ranking with a tenant's usage boosts: each hit's score × (1 + weight × boost); tools
 * the tenant called for these words but that search did not find join at `weight × boost` of the
 * best score. Exact-name hits and routing pins stay first. Returns at most `limit` hits.
 */
export function applyUsageBoosts(
  hits: readonly SearchHit[],
  boosts: ReadonlyMap<string, number>,
  indexOf: (name: string) => number | undefined,
  limit: number,
  weight = DEFAULT_USAGE_BOOSTS.weight,
): SearchHit[] {
  if (boosts.size === 0) return hits.slice(0, limit);
  // Exact names and routing pins are decisions, not scores: they keep their places.
  const exact = hits.filter((hit) => hit.reason === 'exact' || hit.reason === 'rule');
  const ranked = hits.filter((hit) => hit.reason !== 'exact' && hit.reason !== 'rule');
  const best = ranked.reduce((max, hit) => Math.max(max, hit.score), 0) || 1;
  const scored = ranked.map((hit) => ({ ...hit, score: hit.score * (1 + weight * (boosts.get(hit.name) ?? 0)) }));
  const present = new Set(hits.map((hit) => hit.name));
  for (const [name, boost] of boosts) {
    const index = indexOf(name);
    if (index !== undefined && !present.has(name))
      scored.push({ index, name, score: best * weight * boost, reason: 'bm25' });
  }
  scored.sort((a, b) => b.score - a.score || a.index - b.index);
  return [...exact, ...scored].slice(0, limit);
}

/**
 * Usage boosts per tenant, only for tenants that opted in. A tenant's record is created on its
 * first observation and is never visible to another tenant.
 */
export class UsageBoostRegistry {
  readonly #tenants = new Map<string, UsageBoosts>();
  readonly #optedIn = new Set<string>();

  readonly #options: Partial<UsageBoostOptions>;

  constructor(options: Partial<UsageBoostOptions> = {}) {
    this.#options = options;
  }

  /** Turns learning from use on or off for a tenant (off forgets what was learned). */
  setOptIn(tenant: string, on: boolean): void {
    if (on) this.#optedIn.add(tenant);
    else {
      this.#optedIn.delete(tenant);
      this.#tenants.delete(tenant);
    }
  }

  /** The tenant's record, or undefined when it has not opted in. */
  forTenant(tenant: string): UsageBoosts | undefined {
    if (!this.#optedIn.has(tenant)) return undefined;
    let boosts = this.#tenants.get(tenant);
    if (boosts === undefined) this.#tenants.set(tenant, (boosts = new UsageBoosts(this.#options)));
    return boosts;
  }
}
