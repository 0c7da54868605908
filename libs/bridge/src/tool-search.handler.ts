import type { SessionTool } from '@toolsearch/catalog';
import { BRIDGE_LIMITS } from '@toolsearch/disclosure';
import {
  applyUsageBoosts,
  explainHits,
  type HitExplanation,
  type MatchReason,
  type SearchHit,
  type UsageBoosts,
} from '@toolsearch/search';
import type { BridgeError } from './bridge-error';
import type { BridgeSession } from './bridge-session';
import { readBridgeList } from './list-argument';
import { routedSearch, type RoutingBudget } from './routing';

/** Longest description in the shared `tools` map; longer ones are clipped with `…`. */
export const DESCRIPTION_CLIP = 500;
/** At most this many required parameter names per tool, each at most 64 characters. */
export const MAX_REQUIRED_NAMES = 32;
export const MAX_REQUIRED_NAME_LENGTH = 64;
/**
 * Queries are searched (and echoed) up to this many characters; the rest is dropped. A query is a
 * few words: a megabyte of text in one only made every step after it slow.
 */
export const MAX_QUERY_LENGTH = 1000;

/** One source the session can reach, for empty result groups. */
export interface AvailableSource {
  readonly name: string;
  readonly tool_count: number;
  readonly unavailable?: string;
}

export interface SearchGroup {
  readonly query: string;
  readonly matches: string[];
  /**
   * When search found tools but withheld them as no good match (`SearchEngine.answer`'s
   * `nearest`): the sources of those tools, nearest first, at most `MAX_CLOSEST_SOURCES`.
   */
  readonly closest_sources?: string[];
  readonly available_sources?: AvailableSource[];
  readonly hint?: string;
}

/** What the model learns about a matched tool, once per answer. */
export interface ToolRecord {
  readonly source: SessionTool['kind'];
  readonly source_name: string;
  readonly description: string;
  readonly required: readonly string[];
}

/** The model-facing answer of `tool_search`. */
export interface ToolSearchResult {
  readonly queries: string[];
  readonly total_available: number;
  readonly results: SearchGroup[];
  readonly tools: Record<string, ToolRecord>;
}

/** Per matched tool: where it comes from and why it matched (for operators and the CLI, not the model). */
export interface MatchDetail {
  readonly server: string;
  readonly tool: string;
  readonly score: number;
  readonly reason: MatchReason;
}

export type ToolSearchOutcome =
  | {
      readonly ok: true;
      readonly result: ToolSearchResult;
      readonly details: Map<string, MatchDetail>;
      /** Per query, why each match ranked where it did (only when asked for; never for the model). */
      readonly explain?: QueryExplanation[];
    }
  | { readonly ok: false; readonly error: BridgeError };

/** Sources named in a withheld answer's `closest_sources`. */
export const MAX_CLOSEST_SOURCES = 3;

/** The hint of a group whose tools were withheld: something came near, nothing fitted. */
export const NO_GOOD_MATCH_HINT =
  'Some tools share words with this query, but none looks like it does what was asked, so none is listed. The sources in closest_sources came nearest: if one of them is what you meant, search again with its name and a concrete action; if none is, the capability is probably not connected.';

export const EMPTY_GROUP_HINT =
  'Nothing matched these words, but the sources listed here are connected and their tools can be used. Search again with the service name and a concrete action or object before deciding the capability is missing.';

function clip(text: string, length: number): string {
  return text.length <= length ? text : `${text.slice(0, length)}…`;
}

/** The required parameter names of a schema, bounded; [] for anything malformed. */
export function requiredNames(schema: unknown): string[] {
  if (typeof schema !== 'object' || schema === null) return [];
  const required = (schema as { required?: unknown }).required;
  if (!Array.isArray(required)) return [];
  return required
    .filter((name): name is string => typeof name === 'string')
    .slice(0, MAX_REQUIRED_NAMES)
    .map((name) => name.slice(0, MAX_REQUIRED_NAME_LENGTH));
}

// A tool's record never changes (session tools are immutable values), so it is built once.
const records = new WeakMap<SessionTool, ToolRecord>();

function toolRecord(tool: SessionTool): ToolRecord {
  let record = records.get(tool);
  if (record === undefined) {
    record = {
      source: tool.kind,
      source_name: tool.label,
      description: clip(tool.definition.description, DESCRIPTION_CLIP),
      required: requiredNames(tool.definition.inputSchema),
    };
    records.set(tool, record);
  }
  return record;
}

function availableSources(session: BridgeSession): AvailableSource[] {
  const counts = new Map<string, number>();
  for (const tool of session.table.deferred) counts.set(tool.label, (counts.get(tool.label) ?? 0) + 1);
  const sources: AvailableSource[] = [...counts].map(([name, count]) => ({ name, tool_count: count }));
  for (const source of session.table.unavailable) {
    sources.push({ name: source.label, tool_count: source.toolCount, unavailable: source.reason });
  }
  return sources.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The sources of the tools search withheld (no good match), nearest first, at most `MAX_CLOSEST_SOURCES`. */
function closestSources(session: BridgeSession, nearest: readonly SearchHit[]): string[] {
  const names: string[] = [];
  for (const hit of nearest) {
    const label = session.table.deferred[hit.index]?.label;
    if (label !== undefined && !names.includes(label)) names.push(label);
    if (names.length === MAX_CLOSEST_SOURCES) break;
  }
  return names;
}

/** Reads `limit`: absent → the default; a number or numeric string → its whole part, clamped. */
export function readLimit(value: unknown, defaultLimit: number, maxLimit: number): number {
  if (value === undefined || value === null) return defaultLimit;
  const number = typeof value === 'number' ? value : typeof value === 'string' ? Number(value.trim()) : NaN;
  if (!Number.isFinite(number)) return defaultLimit;
  return Math.min(maxLimit, Math.max(1, Math.trunc(number)));
}

/**
 * Learning from use for one search: the tenant's record (never another tenant's) and the time.
 * Absent when the tenant has not opted in.
 */
export interface UsageSignal {
  readonly boosts: UsageBoosts;
  readonly now: number;
}

function withUsage(
  session: BridgeSession,
  query: string,
  hits: SearchHit[],
  limit: number,
  usage: UsageSignal,
): SearchHit[] {
  const boosts = usage.boosts.boosts(query, usage.now);
  if (boosts.size === 0) return hits;
  return applyUsageBoosts(hits, boosts, (name) => session.engine.positionOf(name), limit);
}

/** The operator's view of one query: its confidence, what search withheld, and why each match came. */
export interface QueryExplanation {
  readonly query: string;
  /** Calibrated probability that the matches hold a right tool. */
  readonly confidence: number;
  /** Search found tools but withheld them as no good match (see `nearest`). */
  readonly abstained: boolean;
  /** The withheld tools, nearest first (empty unless abstained). */
  readonly nearest: readonly string[];
  /**
   * The context check's support when the confidence was low enough to run it: how well the
   * request's unmatched words fit the best of the first tools' subjects (below the model's
   * `context.support` the answer is withheld).
   */
  readonly contextSupport?: number;
  /**
   * The best example request's score against the request, when the example requests judged a
   * doubtful answer (withheld by the gate `EXAMPLES.abstain`, or, with `rescued`, given back).
   */
  readonly exampleScore?: number;
  /** With `exampleScore`: the share of the request that best example says (0…1). */
  readonly exampleShare?: number;
  /**
   * Withheld because nothing fits: the score of an example of a request no tool serves that read
   * closer to the query than every example of the tools found (`EXAMPLES.nothing`).
   */
  readonly nothingScore?: number;
  /** The lexical confidence or the context check would have withheld the answer; an example request gave it. */
  readonly rescued?: true;
  readonly matches: HitExplanation[];
}

/**
 * `tool_search(queries, limit?)`: each query searched on its own against the session's catalog,
 * `limit` per query. Matches are names only per group; each matched tool is described once in the
 * shared `tools` map. A group with no match lists the connected sources, so the model does not
 * mistake a wording miss for a missing capability.
 */
export function handleToolSearch(
  session: BridgeSession,
  rawArguments: unknown,
  options: { explain?: boolean; routingBudget?: RoutingBudget; usage?: UsageSignal } = {},
): ToolSearchOutcome {
  const read = readBridgeList(rawArguments, {
    tool: 'tool_search',
    key: 'queries',
    singular: 'query',
    what: 'keyword queries',
    example: '["github create issue", "slack post message"]',
    max: BRIDGE_LIMITS.maxQueries,
    tooMany: 'Keep the most specific ones, or split them over several calls.',
    dedupe: false,
    maxDepth: session.maxJsonDepth,
  });
  if (!read.ok) return read;
  const { args } = read;
  const queries = read.items.map((query) =>
    query.length > MAX_QUERY_LENGTH ? query.slice(0, MAX_QUERY_LENGTH) : query,
  );
  const limit = readLimit(args['limit'], session.config.search_default_limit, session.config.max_search_limit);
  // Keyed by tool names that differ from answer to answer: a prototype-less object is a plain
  // dictionary in V8, where a literal would grow a hidden class per combination of names (this
  // halved the cost of building and serialising an answer).
  const tools = Object.create(null) as Record<string, ToolRecord>;
  const details = new Map<string, MatchDetail>();
  let sources: AvailableSource[] | undefined;
  const explain: QueryExplanation[] = [];
  const results = queries.map((query): SearchGroup => {
    const routed = routedSearch(session, query, limit, options.routingBudget);
    const { rules } = routed;
    const hits =
      options.usage === undefined ? routed.hits : withUsage(session, query, routed.hits, limit, options.usage);
    if (options.explain) {
      // The answer the hits came from (with routing rules, the larger one they re-ranked).
      const { answer } = routed;
      explain.push({
        query,
        confidence: Math.round(answer.confidence * 1000) / 1000,
        abstained: hits.length === 0 && routed.nearest.length > 0,
        nearest: hits.length === 0 ? routed.nearest.map((hit) => hit.name) : [],
        ...(answer.contextSupport === undefined
          ? {}
          : { contextSupport: Math.round(answer.contextSupport * 1000) / 1000 }),
        ...(answer.exampleScore === undefined ? {} : { exampleScore: Math.round(answer.exampleScore * 1000) / 1000 }),
        ...(answer.exampleShare === undefined ? {} : { exampleShare: Math.round(answer.exampleShare * 1000) / 1000 }),
        ...(answer.nothingScore === undefined ? {} : { nothingScore: Math.round(answer.nothingScore * 1000) / 1000 }),
        ...(answer.rescued === true ? { rescued: true as const } : {}),
        matches: explainHits(
          session.engine,
          query,
          hits,
          answer.encoded === true,
          answer.reordered === true,
          answer.voted === true,
        ).map((entry) => ({
          ...entry,
          rules: rules.get(entry.name) ?? [],
        })),
      });
    }
    const matches = hits.map((hit) => {
      const tool = session.table.deferred[hit.index];
      if (tool !== undefined && tools[tool.name] === undefined) {
        tools[tool.name] = toolRecord(tool);
        details.set(tool.name, { server: tool.label, tool: tool.originalName, score: hit.score, reason: hit.reason });
      }
      return hit.name;
    });
    if (matches.length > 0) return { query, matches };
    sources ??= availableSources(session);
    if (sources.length === 0) return { query, matches };
    const closest = closestSources(session, routed.nearest);
    return closest.length > 0
      ? { query, matches, closest_sources: closest, available_sources: sources, hint: NO_GOOD_MATCH_HINT }
      : { query, matches, available_sources: sources, hint: EMPTY_GROUP_HINT };
  });
  return {
    ok: true,
    result: { queries, total_available: session.table.deferred.length, results, tools },
    details,
    ...(options.explain ? { explain } : {}),
  };
}
