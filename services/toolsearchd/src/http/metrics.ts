import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { BRIDGE_ERROR_CODES } from '@toolsearch/bridge';
import { CALL_ERROR_CODES, WIRE_ERROR_CODES } from '@toolsearch/proto';

/** What the metrics read at scrape time (cheap snapshots owned by other parts of the daemon). */
export interface MetricSources {
  /** Sessions with an actor in memory on this replica. */
  sessionsInMemory(): number;
  /** How many of those sessions were last assembled at each tier. */
  tierCounts(): ReadonlyMap<number, number>;
  /** Held calls waiting for a decision (every tenant of the deployment). */
  approvalsPending(): Promise<number>;
  /** The MCP servers this replica holds, and whether each is connected right now (only counted). */
  mcpServers(): readonly { tenant: string; server: string; connected: boolean }[];
  /**
   * Tools held by the replica's bounded caches (indexed by search engines, held by cached
   * assemblies) and the search engines built so far.
   */
  heldTools(): { indexed: number; assembled: number; engineBuilds: number };
}

/**
 * The outcomes an MCP request may be counted under. A tool's own error code comes from the
 * tenant's executor and could be anything (a tenant's name, a new value per call): counted as
 * `other`, so no tenant chooses a label value of the public metrics.
 */
const MCP_OUTCOMES: ReadonlySet<string> = new Set([
  'ok',
  'error',
  'pending_approval',
  'unauthorized',
  'PARTIAL_FAILURE',
  ...Object.values(WIRE_ERROR_CODES),
  ...Object.values(CALL_ERROR_CODES),
  ...Object.values(BRIDGE_ERROR_CODES),
]);

const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10];

/**
 * The daemon's Prometheus metrics, in a registry of its own (several daemons in one process —
 * tests, embedders — never share counters). Names follow Prometheus conventions: `_total` for
 * counters, `_seconds` for durations.
 *
 * `/metrics` is served without authentication on the public listener, so no series names a
 * tenant, a server, a session or a credential: label values come from fixed sets (endpoints,
 * error codes, tiers, states). Per-server health is an operator's view (`toolsearch toolsets
 * list`, the daemon's logs), behind a credential.
 */
export class DaemonMetrics {
  readonly registry = new Registry();
  readonly #requests: Counter<'endpoint' | 'outcome'>;
  readonly #latency: Histogram<'endpoint'>;
  readonly #search: Histogram;
  readonly #decisions: Counter<'decision'>;
  readonly #mcpRequests: Counter<'method' | 'outcome'>;
  readonly #vetting: Histogram<'phase'>;

  constructor(sources: MetricSources) {
    const registers = [this.registry];
    this.#requests = new Counter({
      name: 'toolsearch_requests_total',
      help: 'Requests answered over NATS, by endpoint and outcome (ok or the error code).',
      labelNames: ['endpoint', 'outcome'],
      registers,
    });
    this.#latency = new Histogram({
      name: 'toolsearch_request_duration_seconds',
      help: 'Time from receiving a NATS request to sending its reply, by endpoint.',
      labelNames: ['endpoint'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.#search = new Histogram({
      name: 'toolsearch_search_duration_seconds',
      help: 'Time spent ranking tools for one tool_search request (the search itself, no transport).',
      buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.1],
      registers,
    });
    this.#decisions = new Counter({
      name: 'toolsearch_approvals_decided_total',
      help: 'Decisions recorded on held calls, by decision.',
      labelNames: ['decision'],
      registers,
    });
    this.#mcpRequests = new Counter({
      name: 'toolsearch_mcp_requests_total',
      help: 'Requests on the MCP endpoint (/mcp), by JSON-RPC method and outcome.',
      labelNames: ['method', 'outcome'],
      registers,
    });
    this.#vetting = new Histogram({
      name: 'toolsearch_vetting_duration_seconds',
      help: 'Time spent vetting one stored toolset: phase scan (the poisoning scanner with its set-up and findings cache) and total (digests, pins, scan, policy, audit).',
      labelNames: ['phase'],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
      registers,
    });
    new Gauge({
      name: 'toolsearch_sessions_open',
      help: 'Open sessions with an actor in memory on this replica.',
      registers,
      collect() {
        this.set(sources.sessionsInMemory());
      },
    });
    new Gauge({
      name: 'toolsearch_sessions_by_tier',
      help: 'Sessions in memory on this replica by the tier of their last assembly (0 direct, 1 listing, 2 search only).',
      labelNames: ['tier'],
      registers,
      collect() {
        this.reset();
        for (const tier of [0, 1, 2]) this.set({ tier: String(tier) }, sources.tierCounts().get(tier) ?? 0);
      },
    });
    new Gauge({
      name: 'toolsearch_cached_tools',
      help: "Tools held by the replica's bounded caches (limits.maxIndexedTools, limits.maxAssembledTools): indexed by search engines, or held by cached assemblies.",
      labelNames: ['cache'],
      registers,
      collect() {
        const held = sources.heldTools();
        this.set({ cache: 'engines' }, held.indexed);
        this.set({ cache: 'assemblies' }, held.assembled);
      },
    });
    let builds = 0;
    new Counter({
      name: 'toolsearch_engine_builds_total',
      help: 'Search engines built: for a catalog seen for the first time, or again after the bounded store gave its engine up (many rebuilds: raise limits.maxIndexedTools).',
      registers,
      collect() {
        const now = sources.heldTools().engineBuilds;
        if (now > builds) this.inc(now - builds);
        builds = now;
      },
    });
    new Gauge({
      name: 'toolsearch_approvals_pending',
      help: 'Held calls waiting for a human decision (all tenants of this deployment).',
      registers,
      async collect() {
        this.set(await sources.approvalsPending().catch(() => Number.NaN));
      },
    });
    new Gauge({
      name: 'toolsearch_mcp_servers',
      help: 'MCP servers held by this replica, all tenants together: connected, or away (reconnecting with backoff).',
      labelNames: ['state'],
      registers,
      collect() {
        const servers = sources.mcpServers();
        const connected = servers.filter((server) => server.connected).length;
        this.set({ state: 'connected' }, connected);
        this.set({ state: 'away' }, servers.length - connected);
      },
    });
  }

  /** One answered NATS request. */
  observeRequest(endpoint: string, outcome: string, seconds: number): void {
    this.#requests.inc({ endpoint, outcome });
    this.#latency.observe({ endpoint }, seconds);
  }

  observeSearch(seconds: number): void {
    this.#search.observe(seconds);
  }

  observeDecision(decision: string): void {
    this.#decisions.inc({ decision });
  }

  observeMcpRequest(method: string, outcome: string): void {
    this.#mcpRequests.inc({ method, outcome: MCP_OUTCOMES.has(outcome) ? outcome : 'other' });
  }

  /** One toolset vetted: seconds in the scanner, and in the whole vetting. */
  observeVetting(scanSeconds: number, totalSeconds: number): void {
    this.#vetting.observe({ phase: 'scan' }, scanSeconds);
    this.#vetting.observe({ phase: 'total' }, totalSeconds);
  }

  /** The exposition text and its content type. */
  async render(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
