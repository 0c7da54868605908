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
  // Each query of a search is a search.
  sessionsSearch: (payload) => queryCount(payload),
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

/** The number of queries a search request carries (1 when it is not a list), at most 100. */
export function queryCount(payload: unknown): number {
  const queries = (payload as { queries?: unknown } | null | undefined)?.queries;
  return Array.isArray(queries) ? Math.min(100, Math.max(1, queries.length)) : 1;
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
