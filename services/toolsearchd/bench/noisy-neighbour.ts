/**
 * The noisy-neighbour benchmark (#17): tenant B runs a steady 500 `sessions.<s>.search` per second
 * from several clients while tenant A, on the same daemon process, is at its limits in one way at
 * a time (noisy-attacks.ts, its own process):
 *   patterns  20 sessions whose config is all hostile routing `when` patterns and many-star globs,
 *             searched with adversarial queries by 32 clients;
 *   churn     sessions opened and closed by 32 clients as fast as they are answered, holding more
 *             than A's session quota (A's `sessions` quota is 1,000 here);
 *   fanout    20,000 open sessions of A over one toolset, which A replaces as fast as it can
 *             (A's `sessions` quota is raised to 21,000 here);
 *   mcp       `initialize` on /mcp with A's one API key, 32 at a time, as fast as answered.
 * Each scenario gets a fresh daemon process (one namespace for the run: B's catalog and session
 * stay in NATS KV and Redis). Once A is set up, B runs alone for `--baseline` seconds (the
 * baseline of that daemon and minute); then A starts, and 1 s later B's measured window begins;
 * A stops 1 s after it.
 * B's latency counts from each request's scheduled send time. The daemon's event-loop delay is
 * sampled by a preloaded monitor, and an idle process beside it samples its own (`machine_floor`:
 * the machine's noise, which no daemon change removes).
 *
 *   npm run bench:noisy -- [--json] [--seconds 12] [--rate 500] [--clients 8] [--fan-sessions 20000]
 *                          [--baseline 5] [--scenarios patterns,churn,fanout,mcp] [--before DIR]
 * --before DIR runs the daemon of the checkout in DIR, code from before #17 (f3ee022: no
 * credentials, no quotas, no HTTP caps): its config leaves those keys out, and `patterns` becomes
 * a single bounded probe (one hostile search, 2 s timeout), since that daemon never comes back
 * from it. Runs on a nats-server of its own (free port) and the Redis at TOOLSEARCH_REDIS_URL.
 */
import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { connect, type NatsConnection } from 'nats';
import type { Toolset } from '@toolsearch/catalog';
import { ToolsearchClient } from '@toolsearch/client';
import { ENDPOINTS, subject } from '@toolsearch/proto';
import { hasSharedData, SHARED_DATA_SKIP_REASON } from '@toolsearch/testing';
import { freePort } from '../test/harness';
import { loadToolsets, publicQueries } from './bench-data';
import { BENCH_KEY, removeDeployment, type BenchNats } from './deployment';
import { cpuMeter, isOk, LightRequester, percentile } from './load';
import type { Scenario } from './noisy-attacks';
import {
  loopDelay,
  machineFloor,
  rssMiB,
  startAttacker,
  startDaemon,
  startNats,
  stopDaemon,
  type Target,
} from './noisy-processes';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const REDIS_URL = process.env['TOOLSEARCH_REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const A_API_KEY = 'tsk_noisy-neighbour-flood-key-0000000000';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
const SCENARIOS = ['patterns', 'churn', 'fanout', 'mcp'] as const;
type Run = (typeof SCENARIOS)[number];

/** A's quotas in each scenario (the defaults but where the scenario needs another). */
const A_QUOTAS: Partial<Record<Run, Record<string, number>>> = {
  churn: { sessions: 1_000 },
  fanout: { sessions: 21_000 },
};

function daemonConfig(
  target: Target,
  run: Run,
  ids: { namespace: string; a: string; b: string; nats: string },
  port: number,
) {
  const config: Record<string, unknown> = {
    nats: { url: ids.nats },
    redis: { url: REDIS_URL },
    namespace: { bucket: ids.namespace, redisPrefix: `${ids.namespace}:`, queue: ids.namespace },
    http: { port },
    log: { level: 'info' },
  };
  const apiKeys = [{ name: 'flood', sha256: sha256(A_API_KEY), grant: { toolsets: ['docs'] } }];
  if (target.legacy) return { ...config, tenants: { [ids.a]: { apiKeys } } };
  return {
    ...config,
    security: { insecure: true },
    credentials: [{ name: 'bench', sha256: sha256(BENCH_KEY), tenants: ['*'], roles: ['gateway'] }],
    tenants: {
      // B is a well-behaved tenant with a big catalog (941 toolsets, more than the default 500).
      [ids.b]: { quotas: { toolsets: 2_000, tools: 100_000, toolsetBytes: 256 * 1024 ** 2, mcpServers: 2_000 } },
      [ids.a]: { apiKeys, ...(A_QUOTAS[run] !== undefined ? { quotas: A_QUOTAS[run] } : {}) },
    },
  };
}

/** Waits until the tenant's events have been quiet for `quietMs` (the registry watch digested the puts). */
async function settled(nc: NatsConnection, tenant: string, quietMs = 1500): Promise<void> {
  let last = performance.now();
  const started = last;
  const subscriptions = ['toolsets.evt.>', 'sessions.*.evt.>'].map((events) =>
    nc.subscribe(`toolsearch.v1.${tenant}.${events}`, { callback: () => (last = performance.now()) }),
  );
  while (performance.now() - last < quietMs && performance.now() - started < 60_000) await sleep(100);
  for (const subscription of subscriptions) subscription.unsubscribe();
}

interface TenantB {
  readonly target: string;
  readonly token: string;
}

/** Runs `call` again every 100 ms while the tenant's quota answers `QUOTA_EXCEEDED`. */
async function withQuotaBackoff<T>(call: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      return await call();
    } catch (error) {
      if ((error as { code?: string }).code !== 'QUOTA_EXCEEDED') throw error;
      await sleep(100);
    }
  }
}

/** B's catalog (the 6,685-tool union) and one session over it, once per run. */
async function setUpB(nc: NatsConnection, tenant: string, toolsets: readonly Toolset[]): Promise<TenantB> {
  const client = new ToolsearchClient(nc, tenant, { timeoutMs: 30_000, credential: BENCH_KEY });
  // A well-behaved gateway registering 941 toolsets at once backs off when its quota says so; the
  // session it opens right after may find the same second's quota spent by those puts.
  for (const toolset of toolsets) await withQuotaBackoff(() => client.putToolset(toolset));
  const { session, token } = await withQuotaBackoff(() =>
    client.openSession({ grant: { toolsets: toolsets.map((t) => t.id) }, model: { contextLength: 200_000 } }),
  );
  return { target: subject(ENDPOINTS.sessionsSearch.template, { tenant, session: session.id }), token };
}

/**
 * B's load: `clients` connections, each sending on a fixed schedule so that together they offer
 * `rate` searches per second; latency from each request's scheduled send time.
 */
async function pacedB(
  conns: readonly NatsConnection[],
  b: TenantB,
  payloads: readonly Uint8Array[],
  options: { rate: number; seconds: number; drainMs: number },
) {
  const requesters = conns.map((nc) => new LightRequester(nc, { inboxPrefix: '_INBOX', bearer: b.token }));
  const latencies: number[] = [];
  const codes: Record<string, number> = {};
  let sent = 0;
  const begin = performance.now() + 50;
  const end = begin + options.seconds * 1000;
  const generatorDelay = monitorEventLoopDelay({ resolution: 1 });
  generatorDelay.enable();
  const run = async (requester: LightRequester, index: number) => {
    const inFlight: Promise<void>[] = [];
    for (let k = 0; ; k += 1) {
      const scheduled = begin + ((k * conns.length + index) * 1000) / options.rate;
      if (scheduled >= end) break;
      const wait = scheduled - performance.now();
      if (wait > 0) await sleep(wait);
      const payload = payloads[(sent += 1) % payloads.length] ?? new Uint8Array();
      inFlight.push(
        requester.request(b.target, payload).then((reply) => {
          if (isOk(reply)) latencies.push(performance.now() - scheduled);
          else {
            const code = reply === undefined ? 'LOST' : errorCode(reply);
            codes[code] = (codes[code] ?? 0) + 1;
          }
        }),
      );
    }
    await Promise.all(inFlight);
  };
  const runs = Promise.all(requesters.map(run));
  await sleep(end - performance.now());
  generatorDelay.disable();
  // Replies still missing `drainMs` after the window are errors.
  await sleep(Math.min(options.drainMs, 1000));
  for (const requester of requesters) await requester.drain(Math.max(0, options.drainMs - 1000));
  await runs;
  latencies.sort((x, y) => x - y);
  const fixed = (ms: number) => Number(ms.toFixed(2));
  return {
    offered_rps: options.rate,
    clients: conns.length,
    requests: sent,
    answered: latencies.length,
    errors: Object.values(codes).reduce((sum, n) => sum + n, 0),
    error_codes: codes,
    p50_ms: fixed(percentile(latencies, 50)),
    p90_ms: fixed(percentile(latencies, 90)),
    p99_ms: fixed(percentile(latencies, 99)),
    max_ms: fixed(latencies[latencies.length - 1] ?? NaN),
    over_20ms: latencies.filter((ms) => ms > 20).length,
    generator_loop_delay_max_ms: fixed(generatorDelay.max / 1e6),
  };
}

function errorCode(reply: Uint8Array): string {
  try {
    return (JSON.parse(new TextDecoder().decode(reply)) as { error?: { code?: string } }).error?.code ?? 'UNKNOWN';
  } catch {
    return 'UNPARSEABLE';
  }
}

async function runScenario(
  target: Target,
  nats: BenchNats & { url: string },
  run: Run,
  context: {
    namespace: string;
    b: string;
    toolsets: readonly Toolset[];
    payloads: readonly Uint8Array[];
    state: { b?: TenantB };
    options: { seconds: number; baselineSeconds: number; rate: number; clients: number; fanSessions: number };
  },
) {
  const { namespace, b, options } = context;
  const a = `a-${run}-${randomUUID().slice(0, 8)}`;
  const port = await freePort();
  const config = daemonConfig(target, run, { namespace, a, b, nats: nats.url }, port);
  const daemon = await startDaemon(target, config, port);
  const conns = await Promise.all(Array.from({ length: options.clients }, () => connect({ servers: nats.url })));
  const [first] = conns;
  try {
    if (first === undefined) throw new Error('no clients');
    context.state.b ??= await setUpB(first, b, context.toolsets);
    await settled(first, b);
    // Warm-up: the first search after a start assembles B's 6,685-tool surface.
    const warm = new LightRequester(first, { inboxPrefix: '_INBOX', bearer: context.state.b.token });
    for (const payload of context.payloads.slice(0, 50)) await warm.request(context.state.b.target, payload);
    await warm.drain(1000);
    const session = context.state.b;
    const scenario: Scenario = run === 'patterns' && target.legacy ? 'probe' : run;
    const attacker = startAttacker({
      scenario,
      natsUrl: nats.url,
      httpUrl: daemon.httpUrl,
      tenant: a,
      apiKey: A_API_KEY,
      seconds: options.seconds + 2,
      fanSessions: options.fanSessions,
    });
    await attacker.ready;
    /** B's paced searches for `seconds`, with the daemon's event-loop delay and CPU over the same window. */
    const measureB = async (seconds: number, drainMs: number) => {
      const meter = cpuMeter([daemon.child.pid ?? 0], nats.pid);
      const floor = machineFloor();
      const from = Date.now();
      const report = await pacedB(conns, session, context.payloads, { rate: options.rate, seconds, drainMs });
      const to = Date.now();
      return {
        ...report,
        window: { from: new Date(from).toISOString(), seconds: Number(((to - from) / 1000).toFixed(1)) },
        daemon_loop_delay: loopDelay(daemon.loopFile, from, to),
        // An idle process's loop delay over the same window (and B's drain): the machine's noise.
        machine_floor: await floor.stop(),
        cpu: meter(report.answered),
      };
    };
    // B alone on the same daemon, A set up and idle: the baseline of this very minute.
    const alone = await measureB(options.baselineSeconds, 10_000);
    attacker.go();
    await sleep(1000);
    const probe = scenario === 'probe';
    const withA = await measureB(probe ? 6 : options.seconds, probe ? 2000 : 10_000);
    return {
      scenario: run,
      tenant_a: a,
      b_alone: alone,
      b_with_a: withA,
      a: await attacker.result,
      daemon_rss_mib_after: rssMiB(daemon.child.pid),
    };
  } finally {
    for (const nc of conns) await nc.close().catch(() => undefined);
    await stopDaemon(daemon.child);
  }
}

type Report = Awaited<ReturnType<typeof runScenario>>;

/** One markdown row per scenario: B alone, then B with A. */
function row(label: string, report: Report): string {
  const { b_alone: alone, b_with_a: b, a } = report;
  const cpu = b.cpu;
  const refused = `${String(a['quota_exceeded'])} of ${String(a['requests'])}`;
  return [
    label,
    report.scenario,
    `${alone.p99_ms} ms, ${alone.errors} errors`,
    `${b.p50_ms} / ${b.p99_ms} / ${b.max_ms}`,
    String(b.errors),
    refused,
    `${b.daemon_loop_delay.max_ms} (${alone.daemon_loop_delay.max_ms} alone; an idle process ${b.machine_floor.worst_ms})`,
    `${cpu.daemon_cores} / ${cpu.nats_server_cores} / ${cpu.generator_cores} / ${String(a['cores'])}`,
  ].join(' | ');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      json: { type: 'boolean', default: false },
      seconds: { type: 'string', default: '12' },
      /** B alone on each scenario's daemon (A set up, idle) before A starts. */
      baseline: { type: 'string', default: '5' },
      rate: { type: 'string', default: '500' },
      clients: { type: 'string', default: '8' },
      'fan-sessions': { type: 'string', default: '20000' },
      scenarios: { type: 'string', default: SCENARIOS.join(',') },
      before: { type: 'string' },
    },
  });
  const runs = (values.scenarios ?? '').split(',').map((name) => name.trim());
  const unknown = runs.find((name) => !(SCENARIOS as readonly string[]).includes(name));
  if (unknown !== undefined) {
    console.error(`--scenarios: '${unknown}' is not one of ${SCENARIOS.join(', ')}`);
    process.exitCode = 2;
    return;
  }
  if (!hasSharedData()) {
    console.error(SHARED_DATA_SKIP_REASON);
    process.exitCode = 2;
    return;
  }
  const root = resolve(values.before ?? join(HERE, '../../..'));
  const target: Target = { root, legacy: !existsSync(join(root, 'services/toolsearchd/src/quotas.ts')) };
  const options = {
    seconds: Number(values.seconds),
    baselineSeconds: Number(values.baseline),
    rate: Number(values.rate),
    clients: Number(values.clients),
    fanSessions: Number(values['fan-sessions']),
  };
  const nats = await startNats();
  const namespace = `noisy-${randomUUID().slice(0, 8)}`;
  const queries = publicQueries();
  const context = {
    namespace,
    b: `b-${namespace}`,
    toolsets: loadToolsets(),
    payloads: queries.map((query) => new TextEncoder().encode(JSON.stringify({ queries: [query] }))),
    state: {},
    options,
  };
  const reports: Report[] = [];
  try {
    for (const run of runs as Run[]) {
      const report = await runScenario(target, nats, run, context);
      reports.push(report);
      if (!values.json) console.error(JSON.stringify(report));
    }
  } finally {
    await removeDeployment(namespace, { url: nats.url });
    await nats.stop();
  }
  const label = target.legacy ? `before (${root})` : 'after';
  const out = { date: new Date().toISOString(), code: root, legacy: target.legacy, options, reports };
  if (values.json) console.log(JSON.stringify(out, null, 2));
  else {
    console.log(
      '| code | A | B alone: p99 | B with A: p50 / p99 / max ms | B errors | A refused (QUOTA_EXCEEDED or 429) of sent | daemon loop delay max ms | CPU cores: daemon / nats / B gen / A |',
    );
    for (const report of reports) console.log(`| ${row(label, report)} |`);
  }
}

await main();
