/**
 * Daemon benchmarks (loopback only, bounded, stops by itself):
 *   1. `sessions.<s>.search` over NATS on the 6,685-tool union catalog with 32 concurrent clients:
 *      closed loop (capacity), and open loop at a fixed total rate (latency at that load);
 *   2. a toolset change fanned out to 1,000 open sessions: time until every tier event is out;
 *   3. resident memory of the daemon with 10,000 open sessions across 100 tenants sharing 20
 *      distinct catalogs: 2 s after the burst of opens, and settled (45 s later, once V8 has
 *      returned the heap it grew to during the burst).
 * The daemon runs as its own process; this process only sends requests, each with a credential
 * (`Authorization: Bearer …`: the bench's gateway key, or a session's token on its subjects).
 *
 *   npm run bench:daemon -- [--json] [--seconds 10] [--memory-only] [--search-only] [--replicas N]
 *                            [--rate 3000] [--auth | --nats open,auth,cluster]
 * --replicas N runs the two search measurements against N daemon processes of one deployment.
 * --nats lists the NATS configurations the search measurements run in, in that order, each with a
 * deployment (daemon processes, namespace) of its own: `open` is the server at TOOLSEARCH_NATS_URL
 * without authentication, `auth` a nats-server of the bench's own with the per-role users that
 * `toolsearch credentials nats` writes (deployment.ts), `cluster` three nodes of the bench's own in
 * one JetStream cluster, bucket at 3 replicas (nats-cluster.ts). --auth is `--nats open,auth`; with two or
 * more, the report sets them side by side. The fan-out runs in the first configuration, the memory
 * measurement on open NATS. No other toolsearchd may serve on TOOLSEARCH_NATS_URL: every daemon on
 * a server gets every request (start one for the bench: `nats-server -js -p 14222 -sd DIR`).
 * TOOLSEARCHD_NODE_FLAGS passes extra node flags to the daemon process (for memory experiments).
 */
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import type { NatsConnection } from 'nats';
import type { Toolset } from '@toolsearch/catalog';
import { ToolsearchClient } from '@toolsearch/client';
import { ENDPOINTS, subject } from '@toolsearch/proto';
import { hasSharedData, SHARED_DATA_SKIP_REASON } from '@toolsearch/testing';
import {
  authNats,
  BENCH_KEY,
  NATS_URL,
  openNats,
  removeDeployment,
  startDaemonProcess,
  stopDaemonProcess,
  type BenchNats,
  type NatsKind,
} from './deployment';
import { keywordQueries, loadToolsets, publicQueries } from './bench-data';
import { memoryRun } from './memory';
import { clusterNats } from './nats-cluster';
import { cpuMeter, isOk, LightRequester, percentile } from './load';

/**
 * Waits until the daemon has digested a burst of toolset puts: every put reaches each replica
 * through the registry watch, and each can re-assemble the open sessions and publish events. A
 * measurement that starts before that is over measures the catch-up, not the steady state.
 */
async function settled(nc: NatsConnection, tenant: string, quietMs = 1500): Promise<void> {
  let last = performance.now();
  const started = last;
  // The tenant's events a gateway may read (toolset changes, session tiers).
  const subscriptions = [`toolsets.evt.>`, `sessions.*.evt.>`].map((events) =>
    nc.subscribe(`toolsearch.v1.${tenant}.${events}`, { callback: () => (last = performance.now()) }),
  );
  while (performance.now() - last < quietMs && performance.now() - started < 60_000) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  for (const subscription of subscriptions) subscription.unsubscribe();
}

/** One configuration's deployment: its NATS, and the daemon processes serving it. */
interface Deployment {
  readonly nats: BenchNats;
  readonly pids: readonly number[];
}

/**
 * A fresh tenant holding the whole catalog and one session over it, settled and warmed up with 50
 * searches; returns the session's search subject, its token and the pre-encoded request payloads.
 */
async function prepareSearch(nc: NatsConnection, tenant: string, toolsets: Toolset[], queries: string[]) {
  const client = new ToolsearchClient(nc, tenant, { timeoutMs: 10_000, credential: BENCH_KEY });
  for (const toolset of toolsets) await client.putToolset(toolset);
  const { session, token } = await client.openSession({
    grant: { toolsets: toolsets.map((t) => t.id) },
    model: { contextLength: 200_000 },
  });
  await settled(nc, tenant);
  for (const query of queries.slice(0, 50)) await client.search(session.id, [query]);
  return {
    target: subject(ENDPOINTS.sessionsSearch.template, { tenant, session: session.id }),
    token,
    payloads: queries.map((query) => new TextEncoder().encode(JSON.stringify({ queries: [query] }))),
  };
}

async function searchThroughput(
  { nats, pids }: Deployment,
  tenant: string,
  toolsets: Toolset[],
  seconds: number,
  keywords: boolean,
) {
  const queries = keywords ? keywordQueries(toolsets) : publicQueries();
  const { nc, inboxPrefix } = await nats.client(tenant);
  const { target, token, payloads } = await prepareSearch(nc, tenant, toolsets, queries);
  const latencies: number[] = [];
  let errors = 0;
  const deadline = performance.now() + seconds * 1000;
  let next = 0;
  const requester = new LightRequester(nc, { inboxPrefix, bearer: token });
  let lastReply = 0;
  const worker = async () => {
    while (performance.now() < deadline) {
      const payload = payloads[next++ % payloads.length] ?? new Uint8Array();
      const start = performance.now();
      const reply = await requester.request(target, payload);
      lastReply = performance.now();
      if (isOk(reply)) latencies.push(lastReply - start);
      else errors += 1;
    }
  };
  const started = performance.now();
  const meter = cpuMeter(pids, nats.pid);
  const workers = Promise.all(Array.from({ length: 32 }, worker));
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  const cpu = meter(latencies.length);
  errors += await requester.drain(10_000);
  await workers;
  await nc.close();
  const elapsed = (lastReply - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    tools: toolsets.reduce((sum, t) => sum + t.tools.length, 0),
    queries: keywords ? 'keyword queries from tool names' : 'the public query sets (long requests)',
    concurrency: 32,
    requests: latencies.length,
    errors,
    throughput_rps: Math.round(latencies.length / elapsed),
    p50_ms: Number(percentile(latencies, 50).toFixed(2)),
    p90_ms: Number(percentile(latencies, 90).toFixed(2)),
    p99_ms: Number(percentile(latencies, 99).toFixed(2)),
    max_ms: Number((latencies[latencies.length - 1] ?? NaN).toFixed(2)),
    ...cpu,
  };
}

/**
 * The same 32 clients, but each sends on a fixed schedule (open loop) so that together they offer
 * `rate` requests per second, whether or not earlier replies have come back. Latency is measured
 * from each request's scheduled send time, so a generator or daemon that falls behind shows up in
 * the numbers instead of quietly sending less. This is the latency at a given load; the closed loop
 * above measures capacity, where the latency is set by the queue (Little's law).
 */
async function searchPaced(
  { nats, pids }: Deployment,
  tenant: string,
  toolsets: Toolset[],
  seconds: number,
  rate: number,
) {
  const { nc, inboxPrefix } = await nats.client(tenant);
  const { target, token, payloads } = await prepareSearch(nc, tenant, toolsets, publicQueries());
  const clients = 32;
  const requester = new LightRequester(nc, { inboxPrefix, bearer: token });
  const latencies: number[] = [];
  let errors = 0;
  let sent = 0;
  const begin = performance.now() + 100;
  const end = begin + seconds * 1000;
  const run = async (clientIndex: number) => {
    const inFlight: Promise<void>[] = [];
    for (let k = 0; ; k += 1) {
      const scheduled = begin + ((k * clients + clientIndex) * 1000) / rate;
      if (scheduled >= end) break;
      const wait = scheduled - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const payload = payloads[(sent += 1) % payloads.length] ?? new Uint8Array();
      inFlight.push(
        requester.request(target, payload).then((reply) => {
          if (isOk(reply)) {
            const latency = performance.now() - scheduled;
            latencies.push(latency);
            if (latency > 10) slowWindows.add(Math.floor((scheduled - begin) / 100));
          } else errors += 1;
        }),
      );
    }
    await Promise.all(inFlight);
  };
  // Which 100 ms windows of the run held the requests slower than 10 ms: a few windows mean
  // stalls (a pause in one of the processes), many mean the load itself is too high.
  const slowWindows = new Set<number>();
  // The generator's own event-loop delay: a stall here shows up as latency that is not the daemon's.
  const generatorDelay = monitorEventLoopDelay({ resolution: 1 });
  generatorDelay.enable();
  const meter = cpuMeter(pids, nats.pid);
  const runs = Promise.all(Array.from({ length: clients }, (_, index) => run(index)));
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000 + 100));
  const cpu = meter(latencies.length);
  generatorDelay.disable();
  errors += await requester.drain(10_000);
  await runs;
  await nc.close();
  latencies.sort((a, b) => a - b);
  return {
    tools: toolsets.reduce((sum, t) => sum + t.tools.length, 0),
    queries: 'the public query sets (long requests)',
    clients,
    offered_rps: rate,
    achieved_rps: Math.round(latencies.length / seconds),
    requests: latencies.length,
    errors,
    p50_ms: Number(percentile(latencies, 50).toFixed(2)),
    p90_ms: Number(percentile(latencies, 90).toFixed(2)),
    p99_ms: Number(percentile(latencies, 99).toFixed(2)),
    max_ms: Number((latencies[latencies.length - 1] ?? NaN).toFixed(2)),
    over_10ms: latencies.filter((latency) => latency > 10).length,
    generator_event_loop_delay_p99_ms: Number((generatorDelay.percentile(99) / 1e6).toFixed(2)),
    generator_event_loop_delay_max_ms: Number((generatorDelay.max / 1e6).toFixed(2)),
    windows_100ms_with_requests_over_10ms: `${slowWindows.size} of ${Math.ceil(seconds * 10)}`,
    slow_windows: [...slowWindows].sort((a, b) => a - b).join(' '),
    ...cpu,
  };
}

async function fanOut(nats: BenchNats, tenant: string, sessions: number) {
  const { nc } = await nats.client(tenant);
  const client = new ToolsearchClient(nc, tenant, { timeoutMs: 10_000, credential: BENCH_KEY });
  await client.putToolset({
    id: 'mcp-fan',
    kind: 'mcp',
    label: 'fan',
    tools: [{ name: 'one', description: 'The first tool.' }],
  });
  const ids = new Set<string>();
  for (let i = 0; i < sessions; i += 1) {
    ids.add(
      (await client.openSession({ grant: { toolsets: ['mcp-fan'] }, model: { contextLength: 128_000 } })).session.id,
    );
  }
  let received = 0;
  let last = 0;
  const done = new Promise<void>((resolve) => {
    nc.subscribe(`toolsearch.v1.${tenant}.sessions.*.evt.tier`, {
      callback: () => {
        received += 1;
        last = performance.now();
        if (received === sessions) resolve();
      },
    });
  });
  await nc.flush();
  const start = performance.now();
  await client.putToolset({
    id: 'mcp-fan',
    kind: 'mcp',
    label: 'fan',
    tools: [
      { name: 'one', description: 'The first tool.' },
      { name: 'two', description: 'A second tool.' },
    ],
  });
  await Promise.race([done, new Promise((resolve) => setTimeout(resolve, 30_000))]);
  await nc.close();
  return { sessions, events: received, all_events_ms: Math.round(last - start) };
}

/**
 * One NATS configuration: its own deployment (namespace, daemon processes), the three search
 * measurements, and the fan-out when `fan` says so.
 */
async function runConfiguration(
  kind: NatsKind,
  toolsets: Toolset[],
  options: { seconds: number; rate: number; replicas: number; fan: boolean },
) {
  const namespace = `bench-${randomUUID().slice(0, 8)}`;
  const tenants = ['search', 'kw', 'paced', 'fan'].map((name) => `${name}-${namespace}`);
  const [searchTenant = '', kwTenant = '', pacedTenant = '', fanTenant = ''] = tenants;
  const nats =
    kind === 'auth' ? await authNats(tenants) : kind === 'cluster' ? await clusterNats() : openNats(NATS_URL);
  const daemons: ChildProcess[] = [];
  process.once('exit', () => daemons.forEach((child) => child.kill('SIGKILL')));
  try {
    daemons.push(await startDaemonProcess(namespace, nats.daemon));
    const extra = Array.from({ length: options.replicas - 1 }, () => startDaemonProcess(namespace, nats.daemon));
    daemons.push(...(await Promise.all(extra)));
    const deployment = { nats, pids: daemons.map((child) => child.pid ?? 0) };
    const search = await searchThroughput(deployment, searchTenant, toolsets, options.seconds, false);
    const searchKeywords = await searchThroughput(deployment, kwTenant, toolsets, options.seconds, true);
    const paced = await searchPaced(deployment, pacedTenant, toolsets, options.seconds, options.rate);
    for (const child of daemons.slice(1)) await stopDaemonProcess(child);
    const fan = options.fan ? await fanOut(nats, fanTenant, 1000) : undefined;
    return { nats: kind, search, search_keywords: searchKeywords, search_paced: paced, fan_out: fan };
  } finally {
    for (const child of daemons) await stopDaemonProcess(child);
    await removeDeployment(namespace, nats.daemon);
    await nats.stop();
  }
}

type ConfigurationReport = Awaited<ReturnType<typeof runConfiguration>>;

/** Each search measurement in one row, every configuration side by side, and the change from open NATS. */
function sideBySide(reports: readonly ConfigurationReport[]) {
  const measurements = [
    ['closed loop, long requests', (r: ConfigurationReport) => r.search],
    ['closed loop, keywords', (r: ConfigurationReport) => r.search_keywords],
    [`paced ${reports[0]?.search_paced.offered_rps} req/s`, (r: ConfigurationReport) => r.search_paced],
  ] as const;
  return measurements.map(([measurement, of]) => {
    const rps = (r: ConfigurationReport) => {
      const m = of(r);
      return 'throughput_rps' in m ? m.throughput_rps : m.achieved_rps;
    };
    const row: Record<string, string | number> = { measurement };
    for (const report of reports) {
      row[`${report.nats} req/s`] = rps(report);
      row[`${report.nats} p50 / p99 ms`] = `${of(report).p50_ms} / ${of(report).p99_ms}`;
    }
    const base = reports.find((report) => report.nats === 'open') ?? reports[0];
    for (const report of reports) {
      if (base === undefined || report === base) continue;
      const change = ((rps(report) - rps(base)) / rps(base)) * 100;
      row[`${report.nats} vs ${base.nats} req/s`] = `${change >= 0 ? '+' : ''}${change.toFixed(1)} %`;
    }
    return row;
  });
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      json: { type: 'boolean', default: false },
      seconds: { type: 'string', default: '10' },
      /** Only the memory measurement (for memory experiments). */
      'memory-only': { type: 'boolean', default: false },
      /** Only the search measurements (for profiling and search experiments). */
      'search-only': { type: 'boolean', default: false },
      /** The total rate of the paced (open-loop) search run, requests per second. */
      rate: { type: 'string', default: '3000' },
      /** Daemon processes serving the search runs (one deployment: same queue group and stores). */
      replicas: { type: 'string', default: '1' },
      /** The NATS configurations of the search runs, in order: open, auth, cluster. */
      nats: { type: 'string' },
      /** Both: `--nats open,auth`. */
      auth: { type: 'boolean', default: false },
    },
  });
  const kinds = (values.nats ?? (values.auth ? 'open,auth' : 'open')).split(',').map((kind) => kind.trim());
  const unknown = kinds.find((kind) => kind !== 'open' && kind !== 'auth' && kind !== 'cluster');
  if (unknown !== undefined || kinds.length === 0) {
    console.error(`--nats: '${unknown}' is not a configuration; use open, auth, cluster or several (open,cluster)`);
    process.exitCode = 2;
    return;
  }
  if (!hasSharedData()) {
    console.error(SHARED_DATA_SKIP_REASON);
    process.exitCode = 2;
    return;
  }
  const toolsets = loadToolsets();
  const replicas = Math.min(8, Math.max(1, Number(values.replicas)));
  const searchOnly = values['search-only'] === true;
  const reports: ConfigurationReport[] = [];
  if (values['memory-only'] !== true) {
    for (const [index, kind] of (kinds as NatsKind[]).entries()) {
      const options = { seconds: Number(values.seconds), rate: Number(values.rate), replicas };
      reports.push(await runConfiguration(kind, toolsets, { ...options, fan: !searchOnly && index === 0 }));
    }
  }
  const mem = searchOnly ? undefined : await memoryRun(toolsets);
  const [only] = reports;
  const report = {
    date: new Date().toISOString(),
    replicas,
    ...(reports.length === 1 && only !== undefined ? only : {}),
    ...(reports.length > 1 ? { configurations: reports, side_by_side: sideBySide(reports) } : {}),
    ...(mem !== undefined ? { memory: mem } : {}),
  };
  if (values.json) console.log(JSON.stringify(report, null, 2));
  else {
    console.dir(report, { depth: null });
    if (reports.length > 1) console.table(sideBySide(reports));
  }
}

await main();
