/**
 * Soak: mixed traffic across 100 tenants against one toolsearchd process, on loopback only,
 * bounded in time and concurrency, stopping by itself. Reports throughput, latency percentiles
 * per operation, errors and the daemon's resident memory over time (with its slope).
 *
 *   npm run soak -- [--minutes 10] [--concurrency 16] [--json]
 *
 * Mix: 40 % search, 25 % assemble, 10 % describe, 7 % open + close a session, 6 % toolset churn
 * (a tenant's toolset replaced, which re-tiers its sessions), 8 % dispatch of a read-only plugin
 * tool, 4 % dispatch of a high-risk tool that is held for approval. An approver loop approves
 * (about 70 %) or denies the held calls as they come; at the end every held call is accounted for:
 * approved ones must have run exactly once, denied ones never, undecided ones must still be listed.
 * The plugin toolset `ops` of every tenant is served by this process (`exec.ops`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { connect, JSONCodec } from 'nats';
import type { ExecRequest } from '@toolsearch/proto';
import { parseCatalogFiles, ToolsetSchema, type Toolset } from '@toolsearch/catalog';
import { ToolsearchClient } from '@toolsearch/client';
import { hasSharedData, SHARED_CATALOGS, SHARED_DATA_SKIP_REASON, sharedDataPath } from '@toolsearch/testing';
import { parseDaemonConfig } from '../src/config';
import { cleanup } from '../test/harness';

const NATS_URL = process.env['TOOLSEARCH_NATS_URL'] ?? 'nats://127.0.0.1:4222';
const REDIS_URL = process.env['TOOLSEARCH_REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const QUERIES = [
  'create an issue',
  'send a message',
  'search the web',
  'weather forecast',
  'read a file',
  'list repositories',
  'query a database',
  'translate text',
  'stock price',
  'calendar event',
];

function rssMiB(pid: number): number {
  const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  return Math.round((kb / 1024) * 10) / 10;
}

function percentile(sorted: readonly number[], p: number): number {
  return Number((sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN).toFixed(2));
}

/** Least-squares slope of y over x. */
function slope(points: readonly [number, number][]): number {
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const num = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const den = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  return den === 0 ? 0 : num / den;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      minutes: { type: 'string', default: '1' },
      concurrency: { type: 'string', default: '16' },
      json: { type: 'boolean', default: false },
    },
  });
  const minutes = Math.min(60, Math.max(0.1, Number(values.minutes)));
  const concurrency = Math.min(64, Math.max(1, Number(values.concurrency)));
  if (!hasSharedData()) {
    console.error(SHARED_DATA_SKIP_REASON);
    process.exitCode = 2;
    return;
  }
  const namespace = `soak-${randomUUID().slice(0, 8)}`;
  const configPath = join(mkdtempSync(join(tmpdir(), 'toolsearchd-soak-')), 'config.json');
  const config = {
    nats: { url: NATS_URL },
    redis: { url: REDIS_URL },
    // The soak's local NATS and Redis run without authentication.
    security: { insecure: true },
    namespace: { bucket: namespace, redisPrefix: `${namespace}:`, queue: namespace },
    http: { port: 0 },
    log: { level: 'warn' },
  };
  writeFileSync(configPath, JSON.stringify(config));
  const daemon: ChildProcess = spawn(process.execPath, ['--import', 'tsx', MAIN, '--config', configPath], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  process.once('exit', () => daemon.kill('SIGKILL'));
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const nc = await connect({ servers: NATS_URL });
  try {
    const parsed = parseCatalogFiles(
      (['github', 'livemcpbench'] as const).map((name) => ({
        source: name,
        text: readFileSync(sharedDataPath(SHARED_CATALOGS[name]), 'utf8'),
      })),
    );
    if (!parsed.ok) throw new Error(parsed.error.message);
    // Every tenant's plugin toolset `ops`, run here: count the runs of each approved call.
    const codec = JSONCodec<unknown>();
    const runsByApproval = new Map<string, number>();
    let pings = 0;
    nc.subscribe(`toolsearch.v1.*.exec.ops`, {
      callback: (error, message) => {
        if (error) return;
        const request = codec.decode(message.data) as ExecRequest;
        if (request.approval_id !== undefined)
          runsByApproval.set(request.approval_id, (runsByApproval.get(request.approval_id) ?? 0) + 1);
        else pings += 1;
        message.respond(codec.encode({ ok: true, data: { ran: request.tool } }));
      },
    });
    await nc.flush();
    const ops = ToolsetSchema.parse({
      id: 'ops',
      kind: 'plugin',
      label: 'ops',
      tools: [
        {
          name: 'ping',
          description: 'Check that a service answers.',
          inputSchema: { type: 'object' },
          annotations: { readOnlyHint: true },
        },
        { name: 'purge_cache', description: 'Purge a cache.', inputSchema: { type: 'object' }, risk: 'high' },
      ],
    });
    const per = Math.ceil(parsed.toolsets.length / 20);
    const catalogs: Toolset[][] = Array.from({ length: 20 }, (_, i) => parsed.toolsets.slice(i * per, (i + 1) * per));
    const tenants = await Promise.all(
      Array.from({ length: 100 }, async (_, i) => {
        const client = new ToolsearchClient(nc, `${namespace}-t${i}`, { timeoutMs: 10_000 });
        const catalog = catalogs[i % 20] ?? [];
        for (const toolset of catalog) await client.putToolset(toolset);
        await client.putToolset(ops);
        const grant = { toolsets: [...catalog.map((t) => t.id), 'ops'] };
        const sessions: string[] = [];
        for (let s = 0; s < 10; s += 1)
          sessions.push((await client.openSession({ grant, model: { contextLength: 128_000 } })).session.id);
        return { client, catalog, grant, sessions };
      }),
    );
    const latencies = new Map<string, number[]>();
    let errors = 0;
    let requests = 0;
    const samples: [number, number][] = [];
    const started = performance.now();
    const deadline = started + minutes * 60_000;
    const sampler = setInterval(
      () => samples.push([(performance.now() - started) / 60_000, rssMiB(daemon.pid ?? 0)]),
      5000,
    );
    // Held calls: created by the traffic below, decided by the approver loop.
    const held: { tenant: ToolsearchClient; id: string }[] = [];
    const approved = new Set<string>();
    const denied = new Set<string>();
    const undecided: { tenant: ToolsearchClient; id: string }[] = [];
    let decideErrors = 0;
    let trafficDone = false;
    const approver = (async () => {
      for (;;) {
        const next = held.shift();
        if (next === undefined) {
          if (trafficDone) return;
          await new Promise((resolve) => setTimeout(resolve, 20));
          continue;
        }
        try {
          const { approval } = await next.tenant.getApproval(next.id);
          const decision = approved.size + denied.size === 0 || Math.random() < 0.7 ? 'approve' : 'deny';
          await next.tenant.decide(next.id, {
            decision,
            by: 'soak-approver',
            tool: approval.tool,
            digest: approval.digest,
          });
          (decision === 'approve' ? approved : denied).add(next.id);
        } catch {
          decideErrors += 1;
          undecided.push(next);
        }
      }
    })();
    let counter = 0;
    const op = async () => {
      const tenant = tenants[counter++ % tenants.length];
      if (tenant === undefined) return;
      const session = tenant.sessions[counter % tenant.sessions.length] ?? '';
      const roll = counter % 100;
      const timed = async (name: string, work: () => Promise<unknown>) => {
        const t0 = performance.now();
        try {
          await work();
          requests += 1;
          const list = latencies.get(name) ?? [];
          list.push(performance.now() - t0);
          latencies.set(name, list);
        } catch {
          errors += 1;
        }
      };
      if (roll < 40)
        await timed('search', () => tenant.client.search(session, [QUERIES[counter % QUERIES.length] ?? 'x']));
      else if (roll < 65) await timed('assemble', () => tenant.client.assemble(session));
      else if (roll < 75) await timed('describe', () => tenant.client.describe(session, ['x__y']));
      else if (roll < 83)
        await timed('dispatch', async () => {
          const { results } = await tenant.client.dispatch(session, [
            { id: `p${counter}`, name: 'ping', arguments: {} },
          ]);
          if (results[0]?.ok !== true) throw new Error(results[0]?.error?.code ?? 'dispatch failed');
        });
      else if (roll < 87)
        await timed('dispatch held', async () => {
          const { results } = await tenant.client.dispatch(session, [
            { id: `h${counter}`, name: 'purge_cache', arguments: { cache: `c${counter}` } },
          ]);
          const id = results[0]?.approval_id;
          if (results[0]?.status !== 'pending_approval' || id === undefined) throw new Error('not held');
          held.push({ tenant: tenant.client, id });
        });
      else if (roll < 94) {
        await timed('open+close', async () => {
          const { session: opened } = await tenant.client.openSession({
            grant: tenant.grant,
            model: { contextLength: 32_000 },
          });
          await tenant.client.closeSession(opened.id);
        });
      } else {
        const toolset = tenant.catalog[counter % Math.max(tenant.catalog.length, 1)];
        if (toolset !== undefined) {
          await timed('toolset churn', () =>
            tenant.client.putToolset({
              ...toolset,
              tools: counter % 2 === 0 ? toolset.tools : toolset.tools.slice(0, Math.max(1, toolset.tools.length - 1)),
            }),
          );
        }
      }
    };
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (performance.now() < deadline) await op();
      }),
    );
    clearInterval(sampler);
    samples.push([(performance.now() - started) / 60_000, rssMiB(daemon.pid ?? 0)]);
    const elapsed = (performance.now() - started) / 1000;
    trafficDone = true;
    await approver;
    // Let the last approved calls run, then account for every held call.
    const settle = performance.now() + 15_000;
    while ([...approved].some((id) => !runsByApproval.has(id)) && performance.now() < settle)
      await new Promise((resolve) => setTimeout(resolve, 100));
    let undecidedListed = 0;
    for (const { tenant, id } of undecided) {
      const listed = await tenant.getApproval(id).catch(() => undefined);
      if (listed?.approval.state === 'pending') undecidedListed += 1;
    }
    const heldCalls = {
      created: approved.size + denied.size + undecided.length,
      approved: approved.size,
      denied: denied.size,
      approved_ran_once: [...approved].filter((id) => runsByApproval.get(id) === 1).length,
      approved_not_run: [...approved].filter((id) => !runsByApproval.has(id)).length,
      ran_more_than_once: [...runsByApproval.values()].filter((count) => count > 1).length,
      denied_but_ran: [...denied].filter((id) => runsByApproval.has(id)).length,
      undecided: undecided.length,
      undecided_still_listed: undecidedListed,
      decide_errors: decideErrors,
      lost: [...approved].filter((id) => !runsByApproval.has(id)).length + (undecided.length - undecidedListed),
    };
    const half = samples.filter(([minute]) => minute >= minutes / 2);
    const report = {
      date: new Date().toISOString(),
      minutes,
      concurrency,
      tenants: tenants.length,
      sessions: tenants.length * 10,
      requests,
      errors,
      throughput_rps: Math.round(requests / elapsed),
      read_only_calls_run: pings,
      held_calls: heldCalls,
      latency_ms: Object.fromEntries(
        [...latencies].map(([name, list]) => {
          const sorted = [...list].sort((a, b) => a - b);
          return [name, { count: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99) }];
        }),
      ),
      rss_mib: {
        first: samples[0]?.[1],
        last: samples[samples.length - 1]?.[1],
        max: Math.max(...samples.map(([, y]) => y)),
      },
      rss_slope_mib_per_min_second_half: Number(slope(half).toFixed(2)),
      rss_samples: samples.map(([minute, mib]) => [Number(minute.toFixed(2)), mib]),
    };
    console.log(values.json ? JSON.stringify(report, null, 2) : report);
  } finally {
    await nc.close();
    daemon.kill('SIGTERM');
    await new Promise((resolve) => daemon.once('exit', resolve));
    await cleanup(parseDaemonConfig(config));
  }
}

await main();
