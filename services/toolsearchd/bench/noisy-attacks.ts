/**
 * Tenant A of bench:noisy (noisy-neighbour.ts): one hostile tenant at its limits, run as its own
 * process so that its load does not share an event loop with tenant B's paced generator (they
 * still share the two cores, as they would on a real host).
 *
 *   node --import tsx bench/noisy-attacks.ts '<AttackSpec as JSON>'
 *
 * It sets itself up (toolsets, sessions), prints `ready`, waits for `go` on stdin, attacks for
 * `spec.seconds`, and prints one JSON line: what it sent and how each request ended.
 */
import { request as httpRequest, Agent } from 'node:http';
import { createInterface } from 'node:readline';
import { connect, type NatsConnection } from 'nats';
import { ENDPOINTS, subject } from '@toolsearch/proto';
import { BENCH_KEY } from './deployment';
import { HOSTILE_QUERIES, hostileSession } from './hostile-inputs';
import { isOk, LightRequester } from './load';
import { DOCS_TOOLSET as docs } from '../test/harness';

export type Scenario = 'patterns' | 'churn' | 'fanout' | 'mcp' | 'probe';

export interface AttackSpec {
  readonly scenario: Scenario;
  readonly natsUrl: string;
  readonly httpUrl: string;
  readonly tenant: string;
  /** The tenant's MCP API key (configured under tenants.<A>.apiKeys). */
  readonly apiKey: string;
  readonly seconds: number;
  /** Sessions opened before a fan-out attack. */
  readonly fanSessions: number;
}

/** How A's requests ended: answered, refused by a quota (by name), other errors, never answered. */
interface Tally {
  sent: number;
  ok: number;
  quotaExceeded: number;
  byQuota: Record<string, number>;
  otherErrors: Record<string, number>;
  lost: number;
}

const encode = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
const decoder = new TextDecoder();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const model = { contextLength: 128_000 };
const obj = { type: 'object', properties: {} };

function newTally(): Tally {
  return { sent: 0, ok: 0, quotaExceeded: 0, byQuota: {}, otherErrors: {}, lost: 0 };
}

/** Counts one reply in the tally; a success is parsed (to read what it opened) only when `parseOk`. */
function count(tally: Tally, reply: Uint8Array | undefined, parseOk: boolean): Counted {
  if (reply === undefined) {
    tally.lost += 1;
    return { ok: false, code: 'LOST' };
  }
  if (isOk(reply)) {
    tally.ok += 1;
    return parseOk ? { ok: true, body: JSON.parse(decoder.decode(reply)) as Record<string, unknown> } : { ok: true };
  }
  const body = JSON.parse(decoder.decode(reply)) as { error?: { code?: string; message?: string } };
  const code = body.error?.code ?? 'UNKNOWN';
  if (code === 'QUOTA_EXCEEDED') {
    tally.quotaExceeded += 1;
    // For the report only: which quota refused it (the message names it).
    const quota = /quota '([\w.]+)'/.exec(body.error?.message ?? '')?.[1] ?? 'unknown';
    tally.byQuota[quota] = (tally.byQuota[quota] ?? 0) + 1;
  } else tally.otherErrors[code] = (tally.otherErrors[code] ?? 0) + 1;
  return { ok: false, code };
}

interface Counted {
  readonly ok: boolean;
  readonly code?: string;
  /** The reply of a success, when asked for. */
  readonly body?: Record<string, unknown>;
}

/** `workers` loops of `step` until `until` (performance.now()). */
async function closedLoop(workers: number, until: number, step: (worker: number) => Promise<void>): Promise<void> {
  await Promise.all(
    Array.from({ length: workers }, async (_, worker) => {
      while (performance.now() < until) await step(worker);
    }),
  );
}

/** Tool names of about 60 characters that all start with 56 `a`s: the worst case for many-star globs. */
const longNames = (n: number) =>
  Array.from({ length: n }, (_, i) => `${'a'.repeat(56)}${(i + 46656).toString(36).replace(/[ab0-9]/g, 'c')}${i}`);
const long = {
  id: 'long',
  kind: 'plugin',
  label: 'long',
  tools: longNames(200).map((name) => ({ name, description: `A tool with a long name ${name}.`, inputSchema: obj })),
};
/** 120 tools, so that every session A opens has a surface to assemble. */
const churnToolset = {
  id: 'churn',
  kind: 'plugin',
  label: 'churn',
  tools: Array.from({ length: 120 }, (_, i) => ({
    name: `churn_tool_${i}`,
    description: `Tool ${i} of the churn set: reads, writes and lists records of kind ${i % 7}.`,
    inputSchema: obj,
  })),
};

class Attacker {
  readonly tally = newTally();
  readonly #nc: NatsConnection;
  readonly #requester: LightRequester;
  readonly #spec: AttackSpec;

  constructor(nc: NatsConnection, spec: AttackSpec) {
    this.#nc = nc;
    this.#spec = spec;
    this.#requester = new LightRequester(nc, { inboxPrefix: '_INBOX', bearer: BENCH_KEY });
  }

  subject(template: string, session?: string): string {
    return subject(template, { tenant: this.#spec.tenant, ...(session !== undefined ? { session } : {}) });
  }

  /** One request, counted in the tally (a success is parsed only when `parseOk`). */
  async send(template: string, payload: unknown, session?: string, parseOk = false): Promise<Counted> {
    this.tally.sent += 1;
    const reply = await this.#requester.request(this.subject(template, session), encode(payload));
    return count(this.tally, reply, parseOk);
  }

  /** A setup request that must succeed (retried while a quota refuses it); not counted. */
  async must(template: string, payload: unknown, session?: string): Promise<Record<string, unknown>> {
    for (let attempt = 0; ; attempt += 1) {
      const reply = await this.#requester.request(this.subject(template, session), encode(payload));
      const body = JSON.parse(decoder.decode(reply ?? new Uint8Array())) as Record<string, unknown>;
      if (body['ok'] === true) return body;
      const code = (body['error'] as { code?: string } | undefined)?.code;
      if (code !== 'QUOTA_EXCEEDED' || attempt > 1000) throw new Error(`setup ${template}: ${JSON.stringify(body)}`);
      await sleep(50);
    }
  }

  async open(request: unknown): Promise<string> {
    const body = await this.must(ENDPOINTS.sessionsOpen.template, request);
    return (body['session'] as { id: string }).id;
  }

  async drain(ms: number): Promise<void> {
    this.tally.lost += await this.#requester.drain(ms);
  }

  get nc(): NatsConnection {
    return this.#nc;
  }
}

/** (a) Searches with adversarial queries on sessions whose config is all hostile patterns. */
async function patterns(a: Attacker) {
  await a.must(ENDPOINTS.toolsetsPut.template, { toolset: docs });
  await a.must(ENDPOINTS.toolsetsPut.template, { toolset: long });
  const sessions: string[] = [];
  let warnings = 0;
  for (let i = 0; i < 20; i += 1) {
    const body = await a.must(ENDPOINTS.sessionsOpen.template, hostileSession(model));
    const session = body['session'] as { id: string; warnings: string[] };
    sessions.push(session.id);
    warnings = session.warnings.length;
  }
  return {
    setup: { sessions: sessions.length, config_warnings_per_session: warnings },
    attack: async (until: number) => {
      let next = 0;
      await closedLoop(32, until, async () => {
        const k = next++;
        const queries = [0, 1, 2].map((j) => HOSTILE_QUERIES[(k + j) % HOSTILE_QUERIES.length]);
        await a.send(ENDPOINTS.sessionsSearch.template, { queries }, sessions[k % sessions.length]);
      });
      return {};
    },
  };
}

/** (a) against the old daemon: one search that its backtracking `when` never finishes (2 s timeout). */
async function probe(a: Attacker) {
  await a.must(ENDPOINTS.toolsetsPut.template, { toolset: docs });
  const session = await a.open({
    grant: { toolsets: ['docs'] },
    model,
    config: { enabled: 'on', routing: [{ when: '^(a+)+$', tools: ['read_page'], pin: true }] },
  });
  return {
    setup: { sessions: 1 },
    attack: async () => {
      const started = performance.now();
      const reply = await Promise.race([
        a.send(ENDPOINTS.sessionsSearch.template, { queries: [`${'a'.repeat(40)}!`] }, session),
        sleep(2000).then(() => undefined),
      ]);
      return {
        probe:
          reply === undefined ? 'no answer within 2 s' : `answered in ${Math.round(performance.now() - started)} ms`,
      };
    },
  };
}

/**
 * (b) Opens and closes sessions as fast as it can, keeping up to 40 open per worker (more than
 * A's session quota in all), so both the sessions and the requests-per-second quotas refuse.
 */
async function churn(a: Attacker) {
  await a.must(ENDPOINTS.toolsetsPut.template, { toolset: churnToolset });
  const request = { grant: { toolsets: ['churn'] }, model };
  return {
    setup: {},
    attack: async (until: number) => {
      const held: string[][] = Array.from({ length: 32 }, () => []);
      let opened = 0;
      await closedLoop(32, until, async (worker) => {
        const mine = held[worker] ?? [];
        const reply = await a.send(ENDPOINTS.sessionsOpen.template, request, undefined, true);
        const session = reply.body?.['session'] as { id: string } | undefined;
        if (session !== undefined) {
          opened += 1;
          mine.push(session.id);
        }
        // Refused, or holding its share: close the oldest (a refused close stays open for later).
        if (mine.length > 40 || (!reply.ok && mine.length > 0)) {
          const closing = mine.shift() ?? '';
          const closed = await a.send(ENDPOINTS.sessionsClose.template, {}, closing);
          if (closed.code === 'QUOTA_EXCEEDED') mine.push(closing);
        }
      });
      return { opened };
    },
  };
}

/** (c) Opens `fanSessions` sessions over one toolset, then replaces that toolset as fast as it can. */
async function fanout(a: Attacker, spec: AttackSpec) {
  const fan = (revision: number) => ({
    id: 'fan',
    kind: 'plugin',
    label: 'fan',
    tools: [
      { name: 'one', description: `The first tool, revision ${revision}.`, inputSchema: obj },
      { name: 'two', description: 'A second tool.', inputSchema: obj },
    ],
  });
  await a.must(ENDPOINTS.toolsetsPut.template, { toolset: fan(0) });
  const started = performance.now();
  let opened = 0;
  await closedLoop(64, Infinity, async () => {
    if (opened >= spec.fanSessions) throw new StopLoop();
    opened += 1;
    await a.open({ grant: { toolsets: ['fan'] }, model });
  }).catch((error: unknown) => {
    if (!(error instanceof StopLoop)) throw error;
  });
  const openSeconds = (performance.now() - started) / 1000;
  let events = 0;
  a.nc.subscribe(`toolsearch.v1.${spec.tenant}.sessions.*.evt.tier`, { callback: () => (events += 1) });
  return {
    setup: { sessions: opened, open_seconds: Number(openSeconds.toFixed(1)) },
    attack: async (until: number) => {
      let revision = 1;
      const before = events;
      await closedLoop(4, until, async () => {
        await a.send(ENDPOINTS.toolsetsPut.template, { toolset: fan(revision++) });
      });
      return { puts_sent: revision - 1, tier_events_during_attack: events - before };
    },
  };
}

class StopLoop extends Error {}

/** (d) MCP initialize requests with A's API key, 32 at a time, as fast as the endpoint answers. */
async function mcpFlood(_a: Attacker, spec: AttackSpec) {
  const agent = new Agent({ keepAlive: true, maxSockets: 32 });
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'flood', version: '1.0.0' } },
  });
  const url = new URL('/mcp', spec.httpUrl);
  const statuses: Record<string, number> = {};
  const initialize = () =>
    new Promise<string>((resolve) => {
      const req = httpRequest(
        url,
        {
          method: 'POST',
          agent,
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            authorization: `Bearer ${spec.apiKey}`,
            'content-length': Buffer.byteLength(body),
          },
          timeout: 10_000,
        },
        (res) => {
          res.resume();
          res.once('end', () => resolve(String(res.statusCode)));
          res.once('error', () => resolve('response error'));
        },
      );
      req.once('timeout', () => req.destroy(new Error('timeout')));
      req.once('error', (error) => resolve(error.message === 'timeout' ? 'timeout' : 'connection error'));
      req.end(body);
    });
  return {
    setup: {},
    attack: async (until: number) => {
      await closedLoop(32, until, async () => {
        const status = await initialize();
        statuses[status] = (statuses[status] ?? 0) + 1;
      });
      agent.destroy();
      return { http_statuses: statuses };
    },
  };
}

const SCENARIOS = { patterns, probe, churn, fanout, mcp: mcpFlood } as const;

async function main(): Promise<void> {
  const spec = JSON.parse(process.argv[2] ?? '{}') as AttackSpec;
  const nc = await connect({ servers: spec.natsUrl });
  const attacker = new Attacker(nc, spec);
  const { setup, attack } = await SCENARIOS[spec.scenario](attacker, spec);
  console.log('ready');
  const lines = createInterface({ input: process.stdin });
  await new Promise<void>((resolve) => lines.once('line', () => resolve()));
  const started = performance.now();
  const cpu = process.cpuUsage();
  const extra = await attack(started + spec.seconds * 1000);
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  await attacker.drain(spec.scenario === 'probe' ? 0 : 5000);
  const { tally } = attacker;
  const http = 'http_statuses' in extra ? (extra.http_statuses as Record<string, number>) : undefined;
  const httpSent = http === undefined ? 0 : Object.values(http).reduce((sum, n) => sum + n, 0);
  console.log(
    JSON.stringify({
      scenario: spec.scenario,
      setup,
      seconds: Number(seconds.toFixed(1)),
      /** This process's CPU over the attack, as a share of one core. */
      cores: Number(((used.user + used.system) / 1e6 / seconds).toFixed(2)),
      requests: tally.sent + httpSent,
      requests_per_s: Math.round((tally.sent + httpSent) / seconds),
      ok: tally.ok + (http?.['200'] ?? 0),
      quota_exceeded: tally.quotaExceeded + (http?.['429'] ?? 0),
      by_quota: tally.byQuota,
      other_errors: tally.otherErrors,
      lost: tally.lost,
      ...extra,
    }),
  );
  lines.close();
  await nc.close().catch(() => undefined);
  process.exit(0);
}

await main();
