import {
  jsonDepthWithin,
  MAX_QUERY_LENGTH,
  normalizeCallEntries,
  readArgumentsObject,
  readStringList,
} from '@toolsearch/bridge';
import { BRIDGE_LIMITS } from '@toolsearch/disclosure';
import type { EndpointName } from '@toolsearch/proto';

/**
 * What one request counts against `requestsPerSecond`, by what it costs the daemon compared with
 * one search query (1): opening or spawning a session assembles a surface and writes several Redis
 * keys; closing one walks its children; a toolset put is parsed, stored and fanned out (the
 * fan-out itself runs in slices, coalesced per tenant); an MCP attach opens an outbound
 * connection. Counted by request count alone, a tenant opening and closing sessions at the limit
 * held the daemon's one thread for everyone (another tenant's searches waited up to 87 ms);
 * weighted, the default of 1,000 leaves room for 1,000 search queries a second but 50 session
 * opens.
 */
export const REQUEST_WEIGHTS: Readonly<Partial<Record<EndpointName, number | ((payload: unknown) => number)>>> = {
  // Each query of a search is a search, a long one several (`queryWeight`).
  sessionsSearch: (payload) => searchWeight(payload),
  // A model turn counts the work of its calls (`bridgeCallWeight`), not 1 for up to 64 of them.
  sessionsDispatch: (payload) => dispatchWeight(payload),
  sessionsOpen: 20,
  subagentsSpawn: 20,
  sessionsClose: 5,
  toolsetsPut: 10,
  toolsetsDelete: 10,
  mcpAttach: 50,
  mcpDetach: 10,
};

/**
 * Requests counted against the window but not paced (`request-pacer.ts`): a toolset change costs
 * little on arrival, and its work — re-assembling the sessions that hold the toolset — is run by
 * the fan-out scheduler in slices at its own budget, where changes that arrive together cost less
 * (the sessions re-assembled after them share one version). Paced every 10 ms, a tenant's puts
 * under 20,000 sessions took the daemon from 0.39 to 0.50 – 0.60 cores and another tenant's p99
 * from 13.8 to 13.9 – 22.9 ms (BENCHMARKS.md, fifteenth session).
 */
export const UNPACED: ReadonlySet<EndpointName> = new Set<EndpointName>(['toolsetsPut', 'toolsetsDelete']);

/**
 * Requests counted against the tenant's second but refused only past `DECISION_HEADROOM` times its
 * limit: an approver's decision. A person deciding a held call must not be turned away because the
 * tenant's agents filled the second (or a costly build left it owing), yet a flood of decisions
 * (on ids that hold nothing, say) is still bounded. Not paced either. The console's decide form is
 * counted the same way.
 */
export const DECISIONS: ReadonlySet<EndpointName> = new Set<EndpointName>(['approvalsDecide']);
/** How many seconds' worth a tenant's window may hold before its decisions are refused too. */
export const DECISION_HEADROOM = 2;

/** Characters of a query counted as one search: a typical request is well under this. */
const CHARS_PER_QUERY_UNIT = 200;

/**
 * What one query counts: 1 per 200 characters as the bridge reads it (a list item that is not a
 * string is its JSON text; at most `MAX_QUERY_LENGTH`, 1,000, are searched), so 1 to 5. A
 * query's cost grows with the distinct words it has: 1,000 characters of different catalog words
 * took about 1.4 ms on the 6,685-tool union where a typical request takes 0.1 ms.
 */
export function queryWeight(query: string): number {
  return Math.max(1, Math.ceil(Math.min(query.trim().length, MAX_QUERY_LENGTH) / CHARS_PER_QUERY_UNIT));
}

/** What a `sessions.<s>.search` counts: its queries' weights, read as the bridge reads them (at least 1). */
export function searchWeight(payload: unknown): number {
  const weight = listedWeight((payload as { queries?: unknown } | null | undefined)?.queries, BRIDGE_LIMITS.maxQueries);
  return Number.isNaN(weight) ? 1 : Math.max(1, weight);
}

/**
 * What a `queries` (or `query`) argument counts as the bridge reads it (`readStringList`: a bare
 * string is one query, blanks dropped, other items as JSON text), or NaN when it holds more than
 * `cap` queries (the bridge refuses it and runs none).
 */
function listedWeight(value: unknown, cap: number): number {
  const list = readStringList(value);
  if (!list.ok) return 0;
  if (list.items.length > cap) return Number.NaN;
  return list.items.reduce((sum, item) => sum + queryWeight(item), 0);
}

/**
 * How deep the weights read JSON text: the most `limits.maxJsonDepth` allows, so that no depth a
 * deployment lets the bridge follow is read as "refused" here (reading is linear in the text).
 */
const WEIGHT_JSON_DEPTH = 1000;

/**
 * What one call of a model turn (or one `/mcp` `tools/call`) counts, read as the bridge will read
 * it — the arguments as an object or its JSON text, `queries` or `query`: `tool_search` its queries'
 * weights (`queryWeight`: 1 per 200 characters, 1 – 5 each) and `tool_call` 1 per entry, anything else 1. Arguments the bridge refuses (too many queries or
 * entries, not JSON) count 1: the refusal is cheap. JSON text nested deeper than any deployment
 * lets the bridge follow counts as the most the bridge could run.
 */
export function bridgeCallWeight(name: unknown, args: unknown): number {
  if (name !== 'tool_search' && name !== 'tool_call') return 1;
  const most = name === 'tool_search' ? BRIDGE_LIMITS.maxQueries : BRIDGE_LIMITS.maxCalls;
  if (typeof args === 'string' && !jsonDepthWithin(args, WEIGHT_JSON_DEPTH)) return most;
  if (name === 'tool_search') {
    const record = readArgumentsObject(args, WEIGHT_JSON_DEPTH);
    if (record === undefined) return 1;
    const weight = listedWeight(record['queries'] ?? record['query'], most);
    return Number.isNaN(weight) ? 1 : Math.max(1, weight);
  }
  const read = normalizeCallEntries(args, WEIGHT_JSON_DEPTH);
  return read.ok ? Math.max(1, read.entries.length) : 1;
}

/** The weight of a `sessions.<s>.dispatch`: the sum of its calls' (`bridgeCallWeight`), at least 1. */
export function dispatchWeight(payload: unknown): number {
  const calls = (payload as { calls?: unknown } | null | undefined)?.calls;
  if (!Array.isArray(calls)) return 1;
  let weight = 0;
  // The schema refuses more than 64 calls; a longer list counts as its first 64 until it does.
  for (const call of calls.slice(0, 64)) {
    const { name, arguments: args } = (call ?? {}) as { name?: unknown; arguments?: unknown };
    weight += bridgeCallWeight(name, args);
  }
  return Math.max(1, weight);
}

/**
 * What one scan of the request encoder costs beyond its search (`SearchEngine.encoderScans`): a
 * doubtful answer compares the request with every tool of the catalog, about 0.47 ms at 6,685
 * tools where a search costs about 0.1 ms. Charged after the search, like grant tests: one more
 * unit per 2,000 tools.
 */
export function encoderScanWeight(tools: number): number {
  return Math.ceil(tools / 2_000);
}

/**
 * What assembling a session's surface costs when no cached assembly has its content, charged to
 * the tenant after the fact: 1 unit per 20 tools (6,041 tools took 25 – 60 ms, where a search
 * query takes about 0.1 ms).
 */
export function assemblyWeight(tools: number): number {
  return Math.ceil(tools / 20);
}

/**
 * What indexing a catalog no live engine holds costs (the `SurfaceBuilder`'s `EngineStore`, which
 * charges it to the tenant whose catalog it indexes), charged the same way: 1 unit per 5 tools
 * (6,041 tools took about 150 ms).
 */
export function engineBuildWeight(tools: number): number {
  return tools <= 0 ? 0 : Math.ceil(tools / 5);
}

/**
 * What reading the tenant's held calls costs beyond the request (`approvals.list`, the console's
 * held-calls page): each held call read is two Redis round trips, so every 100 read count one
 * more unit, charged after the list is read (a tenant may hold up to `quotas.heldApprovals`).
 */
export function heldReadWeight(read: number): number {
  return Math.floor(Math.max(0, read) / 100);
}
