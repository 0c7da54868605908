/**
 * Daemon benchmarks (loopback only, bounded, stops by itself):
 *   1. `sessions.<s>.search` over NATS on the 6,685-tool union catalog with 32 concurrent clients:
 *      closed loop (capacity), and open loop at a fixed total rate (latency at that load);
 *   2. a toolset change fanned out to 1,000 open sessions: time until every tier event is out;
 *   3. resident memory of the daemon with 10,000 open sessions across 100 tenants sharing 20
 *      distinct catalogs: 2 s after the burst of opens, and settled (45 s later, once V8 has
 *      returned the heap it grew to during the burst).
 * The daemon runs as its own process; this process only sends requests.
 *
 *   npm run bench:daemon -- [--json] [--seconds 10] [--memory-only] [--search-only] [--replicas N]
 *                            [--rate 3000]
 * --replicas N runs the two search measurements against N daemon processes of one deployment.
 * TOOLSEARCHD_NODE_FLAGS passes extra node flags to the daemon process (for memory experiments).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { connect, type NatsConnection } from 'nats';
import { parseCatalogFiles, type Toolset } from '@toolsearch/catalog';
import { ToolsearchClient } from '@toolsearch/client';
import { ENDPOINTS, subject } from '@toolsearch/proto';
import { parseQueryFile } from '@toolsearch/search';
import { hasSharedData, SHARED_CATALOGS, SHARED_DATA_SKIP_REASON, sharedDataPath } from '@toolsearch/testing';
import { cleanup } from '../test/harness';
import { parseDaemonConfig } from '../src/config';

const NATS_URL = process.env['TOOLSEARCH_NATS_URL'] ?? 'nats://127.0.0.1:4222';
const REDIS_URL = process.env['TOOLSEARCH_REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/** CPU seconds (user + system) a process has used so far; 0 when it cannot be read. */
function cpuSeconds(pid: number): number {
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / 100; // clock ticks of 10 ms
  } catch {
    return 0;
  }
}

/** The local nats-server's pid, if one runs on this machine (for the CPU split of a run). */
function natsServerPid(): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'nats-server') return Number(entry);
    } catch {
      // the process ended while we looked
    }
  }
  return undefined;
}

/**
 * Where the two cores went during a run: CPU time of the daemon processes, this load generator and
 * nats-server, as a share of one core, and the daemons' CPU per answered request.
 */
function cpuMeter(daemonPids: readonly number[]) {
  const nats = natsServerPid();
  const daemons = () => daemonPids.reduce((sum, pid) => sum + cpuSeconds(pid), 0);
  const generator = () => {
    const usage = process.cpuUsage();
    return (usage.user + usage.system) / 1e6;
  };
  const start = {
    at: performance.now(),
    daemons: daemons(),
    generator: generator(),
    nats: nats ? cpuSeconds(nats) : 0,
  };
  return (requests: number) => {
    const seconds = (performance.now() - start.at) / 1000;
    const share = (used: number) => Number((used / seconds).toFixed(2));
    const daemonUsed = daemons() - start.daemons;
    return {
      daemon_cores: share(daemonUsed),
      generator_cores: share(generator() - start.generator),
      nats_server_cores: nats ? share(cpuSeconds(nats) - start.nats) : 'not found',
      daemon_cpu_us_per_request: Math.round((daemonUsed * 1e6) / Math.max(1, requests)),
    };
  };
}

function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round((kb / 1024) * 10) / 10;
}

/** The daemon settings of one benchmark deployment: its own KV bucket, Redis prefix and queue group. */
function deploymentConfig(namespace: string) {
  return {
    nats: { url: NATS_URL },
    redis: { url: REDIS_URL },
    // The benchmark's local NATS and Redis run without authentication.
    security: { insecure: true },
    http: { port: 0 },
    namespace: { bucket: namespace, redisPrefix: `${namespace}:`, queue: namespace },
  };
}

/** Removes what a benchmark deployment left in NATS and Redis. */
async function removeDeployment(namespace: string): Promise<void> {
  await cleanup(parseDaemonConfig(deploymentConfig(namespace)));
}

/** Stops a daemon process gracefully and waits until it has exited. */
async function stopDaemonProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

async function startDaemonProcess(namespace: string): Promise<ChildProcess> {
  const config = join(mkdtempSync(join(tmpdir(), 'toolsearchd-bench-')), 'config.json');
  writeFileSync(config, JSON.stringify({ ...deploymentConfig(namespace), log: { level: 'warn' } }));
  const flags = (process.env['TOOLSEARCHD_NODE_FLAGS'] ?? '').split(/\s+/).filter((flag) => flag !== '');
  const child = spawn(process.execPath, [...flags, '--import', 'tsx', MAIN, '--config', config], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  await new Promise((resolve) => setTimeout(resolve, 3000));
  return child;
}

function loadToolsets(): Toolset[] {
  const parsed = parseCatalogFiles(
    (['github', 'livemcpbench', 'toucan'] as const).map((name) => ({
      source: name,
      text: readFileSync(sharedDataPath(SHARED_CATALOGS[name]), 'utf8'),
    })),
  );
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.toolsets;
}

/** Short keyword queries like the ones the bridge asks models to write: a tool's own name words. */
function keywordQueries(toolsets: Toolset[]): string[] {
  const names = toolsets.flatMap((toolset) => toolset.tools.map((tool) => tool.name));
  const step = Math.max(1, Math.floor(names.length / 700));
  return names
    .filter((_, index) => index % step === 0)
    .map((name) =>
      name
        .replace(/([a-z])([A-Z])/g, '$1 $2')
        .replace(/[^A-Za-z0-9]+/g, ' ')
        .trim()
        .toLowerCase(),
    )
    .filter((q) => q !== '');
}

/**
 * Waits until the daemon has digested a burst of toolset puts: every put reaches each replica
 * through the registry watch, and each can re-assemble the open sessions and publish events. A
 * measurement that starts before that is over measures the catch-up, not the steady state.
 */
async function settled(nc: NatsConnection, tenant: string, quietMs = 1500): Promise<void> {
  const subscription = nc.subscribe(`toolsearch.v1.${tenant}.>`);
  let last = performance.now();
  const started = last;
  void (async () => {
    for await (const message of subscription) if (message.subject.includes('.evt.')) last = performance.now();
  })();
  while (performance.now() - last < quietMs && performance.now() - started < 60_000) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  subscription.unsubscribe();
}

/**
 * The load generator's request/reply: one reply subscription and no timer per request (nats.js's
 * `request` sets up a timer and a few objects per call). The generator shares the two cores with
 * the daemon and nats-server, so every microsecond it spends is taken from what is measured.
 * A reply that never comes is counted as an error by `drain` at the end of a run.
 */
class LightRequester {
  readonly #nc: NatsConnection;
  readonly #inbox = `_INBOX.bench.${randomUUID()}`;
  readonly #pending = new Map<number, (data: Uint8Array | undefined) => void>();
  readonly #subscription;
  #next = 0;

  constructor(nc: NatsConnection) {
    this.#nc = nc;
    const prefix = this.#inbox.length + 1;
    this.#subscription = nc.subscribe(`${this.#inbox}.*`, {
      callback: (_error, message) => {
        const id = Number(message.subject.slice(prefix));
        const resolve = this.#pending.get(id);
        if (resolve === undefined) return;
        this.#pending.delete(id);
        resolve(message.data);
      },
    });
  }

  /** The reply's payload, or undefined if `drain` gave up on it. */
  request(subject: string, payload: Uint8Array): Promise<Uint8Array | undefined> {
    const id = this.#next++;
    return new Promise((resolve) => {
      this.#pending.set(id, resolve);
      this.#nc.publish(subject, payload, { reply: `${this.#inbox}.${id}` });
    });
  }

  /** Waits up to `ms` for outstanding replies, then fails the rest; returns how many failed. */
  async drain(ms: number): Promise<number> {
    const until = performance.now() + ms;
    while (this.#pending.size > 0 && performance.now() < until) await new Promise((r) => setTimeout(r, 50));
    const lost = this.#pending.size;
    for (const resolve of this.#pending.values()) resolve(undefined);
    this.#pending.clear();
    this.#subscription.unsubscribe();
    return lost;
  }
}

/** The public query sets' requests (long natural-language requests). */
function publicQueries(): string[] {
  return (['queries-livemcpbench.jsonl', 'queries-stabletoolbench.jsonl'] as const).flatMap((file) => {
    const parsed = parseQueryFile(readFileSync(sharedDataPath(file), 'utf8'));
    return parsed.ok ? parsed.queries.map((q) => q.query) : [];
  });
}

/**
 * A fresh tenant holding the whole catalog and one session over it, settled and warmed up with 50
 * searches; returns the session's search subject and the pre-encoded request payloads.
 */
async function prepareSearch(nc: NatsConnection, tenant: string, toolsets: Toolset[], queries: string[]) {
  const client = new ToolsearchClient(nc, tenant, { timeoutMs: 10_000 });
  for (const toolset of toolsets) await client.putToolset(toolset);
  const { session } = await client.openSession({
    grant: { toolsets: toolsets.map((t) => t.id) },
    model: { contextLength: 200_000 },
  });
  await settled(nc, tenant);
  for (const query of queries.slice(0, 50)) await client.search(session.id, [query]);
  return {
    target: subject(ENDPOINTS.sessionsSearch.template, { tenant, session: session.id }),
    payloads: queries.map((query) => new TextEncoder().encode(JSON.stringify({ queries: [query] }))),
  };
}

/** Replies are checked for this prefix only, so the generator stays light. */
const OK_PREFIX = new TextEncoder().encode('{"ok":true');
const isOk = (reply: Uint8Array | undefined): boolean =>
  reply !== undefined && OK_PREFIX.every((byte, i) => reply[i] === byte);

async function searchThroughput(
  nc: NatsConnection,
  tenant: string,
  toolsets: Toolset[],
  seconds: number,
  keywords: boolean,
  daemonPids: readonly number[],
) {
  const queries = keywords ? keywordQueries(toolsets) : publicQueries();
  const { target, payloads } = await prepareSearch(nc, tenant, toolsets, queries);
  const latencies: number[] = [];
  let errors = 0;
  const deadline = performance.now() + seconds * 1000;
  let next = 0;
  const requester = new LightRequester(nc);
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
  const meter = cpuMeter(daemonPids);
  const workers = Promise.all(Array.from({ length: 32 }, worker));
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  const cpu = meter(latencies.length);
  errors += await requester.drain(10_000);
  await workers;
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
  nc: NatsConnection,
  tenant: string,
  toolsets: Toolset[],
  seconds: number,
  rate: number,
  daemonPids: readonly number[],
) {
  const { target, payloads } = await prepareSearch(nc, tenant, toolsets, publicQueries());
  const clients = 32;
  const requester = new LightRequester(nc);
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
  const meter = cpuMeter(daemonPids);
  const runs = Promise.all(Array.from({ length: clients }, (_, index) => run(index)));
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000 + 100));
  const cpu = meter(latencies.length);
  generatorDelay.disable();
  errors += await requester.drain(10_000);
  await runs;
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

async function fanOut(nc: NatsConnection, tenant: string, sessions: number) {
  const client = new ToolsearchClient(nc, tenant, { timeoutMs: 10_000 });
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
  return { sessions, events: received, all_events_ms: Math.round(last - start) };
}

async function memory(nc: NatsConnection, pid: number, toolsets: Toolset[]) {
  const baseline = rssMiB(pid);
  // 20 distinct catalogs: consecutive slices of the union's servers.
  const per = Math.ceil(toolsets.length / 20);
  const catalogs = Array.from({ length: 20 }, (_, i) => toolsets.slice(i * per, (i + 1) * per));
  const tenants = Array.from({ length: 100 }, (_, i) => `mem-${i}-${randomUUID().slice(0, 6)}`);
  let opened = 0;
  for (const [index, tenant] of tenants.entries()) {
    const client = new ToolsearchClient(nc, tenant, { timeoutMs: 30_000 });
    const catalog = catalogs[index % 20] ?? [];
    for (const toolset of catalog) await client.putToolset(toolset);
    const grant = { toolsets: catalog.map((t) => t.id) };
    await Promise.all(
      Array.from({ length: 100 }, async () => {
        await client.openSession({ grant, model: { contextLength: 200_000 } });
        opened += 1;
      }),
    );
  }
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const afterBurst = rssMiB(pid);
  // V8 gives back the heap it grew to during the burst only once its memory reducer runs (it
  // starts 8 s after the last major GC and needs the process idle): sample until 45 s of quiet.
  const settled: number[] = [];
  for (let second = 4; second <= 45; second += 3) {
    await new Promise((resolve) => setTimeout(resolve, 3000));
    settled.push(rssMiB(pid));
  }
  return {
    tenants: tenants.length,
    sessions: opened,
    distinct_catalogs: 20,
    rss_before_mib: baseline,
    rss_2s_after_burst_mib: afterBurst,
    rss_settled_mib: settled[settled.length - 1],
    rss_samples_every_3s_mib: settled,
  };
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
    },
  });
  if (!hasSharedData()) {
    console.error(SHARED_DATA_SKIP_REASON);
    process.exitCode = 2;
    return;
  }
  const namespace = `bench-${randomUUID().slice(0, 8)}`;
  const daemon = await startDaemonProcess(namespace);
  const replicas = Math.min(8, Math.max(1, Number(values.replicas)));
  const extra = await Promise.all(Array.from({ length: replicas - 1 }, () => startDaemonProcess(namespace)));
  const nc = await connect({ servers: NATS_URL });
  process.once('exit', () => {
    daemon.kill('SIGKILL');
    for (const child of extra) child.kill('SIGKILL');
  });
  try {
    const toolsets = loadToolsets();
    const pids = [daemon, ...extra].map((child) => child.pid ?? 0);
    const memoryOnly = values['memory-only'] === true;
    const search = memoryOnly
      ? undefined
      : await searchThroughput(nc, `search-${namespace}`, toolsets, Number(values.seconds), false, pids);
    const searchKeywords = memoryOnly
      ? undefined
      : await searchThroughput(nc, `kw-${namespace}`, toolsets, Number(values.seconds), true, pids);
    const paced = memoryOnly
      ? undefined
      : await searchPaced(nc, `paced-${namespace}`, toolsets, Number(values.seconds), Number(values.rate), pids);
    for (const child of extra) await stopDaemonProcess(child);
    const searchReport = {
      date: new Date().toISOString(),
      replicas,
      search,
      search_keywords: searchKeywords,
      search_paced: paced,
    };
    const print = (report: object) => console.log(values.json ? JSON.stringify(report, null, 2) : report);
    if (values['search-only'] === true) {
      print(searchReport);
      return;
    }
    const fan = memoryOnly ? undefined : await fanOut(nc, `fan-${namespace}`, 1000);
    // Memory is measured on a fresh daemon, so the first two runs' catalogs do not count.
    await stopDaemonProcess(daemon);
    const memoryNamespace = `${namespace}-mem`;
    const fresh = await startDaemonProcess(memoryNamespace);
    process.once('exit', () => fresh.kill('SIGKILL'));
    let mem;
    try {
      mem = await memory(nc, fresh.pid ?? 0, toolsets);
    } finally {
      await stopDaemonProcess(fresh);
      await removeDeployment(memoryNamespace);
    }
    print({ ...searchReport, fan_out: fan, memory: mem });
  } finally {
    await nc.close();
    await stopDaemonProcess(daemon);
    await removeDeployment(namespace);
  }
}

await main();
