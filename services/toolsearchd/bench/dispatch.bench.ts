/**
 * Dispatch benchmarks (loopback, real NATS and Redis, bounded, stops by itself):
 *   1. dispatch overhead per call — unwrap, planning, policy (guardrails, a Redis rate limit),
 *      approval check, activity events and the audit record — measured in-process as the time of
 *      a one-call turn minus the time spent inside the executor (the tool's own time and its
 *      transport), for a direct call, a `tool_call` entry, and a lookup;
 *   2. approvals: N held calls decided by an approver over NATS and executed by the worker,
 *      decisions and executions per second (until every result is stored).
 *
 *   npm run bench:dispatch -- [--json] [--calls 5000] [--approvals 1000]
 */
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { connect, JSONCodec } from 'nats';
import { pino } from 'pino';
import { ToolsearchClient } from '@toolsearch/client';
import type { TurnCall } from '@toolsearch/bridge';
import { parseDaemonConfig } from '../src/config';
import { Daemon } from '../src/daemon';
import { cleanup } from '../test/harness';

const NATS_URL = process.env['TOOLSEARCH_NATS_URL'] ?? 'nats://127.0.0.1:4222';
const REDIS_URL = process.env['TOOLSEARCH_REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const codec = JSONCodec<unknown>();

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}
const round = (value: number, digits = 3) => Math.round(value * 10 ** digits) / 10 ** digits;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      json: { type: 'boolean', default: false },
      calls: { type: 'string', default: '5000' },
      approvals: { type: 'string', default: '1000' },
    },
  });
  const calls = Math.max(100, Number(values.calls));
  const approvalCount = Math.max(10, Number(values.approvals));
  const namespace = `bench-${randomUUID().slice(0, 8)}`;
  const tenant = 'bench-dispatch';
  const config = parseDaemonConfig({
    nats: { url: NATS_URL },
    redis: { url: REDIS_URL },
    // The benchmark's local NATS and Redis run without authentication.
    security: { insecure: true },
    http: { port: 0 },
    namespace: { bucket: namespace, redisPrefix: `${namespace}:`, queue: namespace },
    log: { level: 'silent' },
    tenants: {
      [tenant]: {
        policy: {
          deny: ['*_purge'],
          rateLimits: [{ scope: 'session', limit: 1_000_000_000, windowMs: 60_000 }],
          approval: { tools: ['approve_me'] },
        },
      },
    },
  });
  const daemon = new Daemon(config, { logger: pino({ level: 'silent' }) });
  await daemon.start();
  const nc = await connect({ servers: NATS_URL });
  const client = new ToolsearchClient(nc, tenant, { timeoutMs: 60_000 });
  nc.subscribe(`toolsearch.v1.${tenant}.exec.bench`, {
    callback: (error, message) => {
      if (!error) message.respond(codec.encode({ ok: true, data: { done: true } }));
    },
  });
  const object = { type: 'object', properties: { n: { type: 'integer' } } };
  await client.putToolset({
    id: 'bench',
    kind: 'plugin',
    label: 'bench',
    tools: [
      { name: 'work', description: 'Do some work.', inputSchema: object },
      { name: 'approve_me', description: 'Needs a human.', inputSchema: object },
    ],
  });
  const { session } = await client.openSession({ grant: { toolsets: ['bench'] }, model: { contextLength: 128_000 } });

  // 1. Overhead per call, in-process, minus executor time.
  const executors = daemon.dispatchService.executors;
  const run = executors.run.bind(executors);
  let inExecutor = 0;
  executors.run = async (target) => {
    const started = performance.now();
    try {
      return await run(target);
    } finally {
      inExecutor += performance.now() - started;
    }
  };
  const dispatcher = daemon.dispatchService.dispatcher;
  const shapes: Record<string, (n: number) => TurnCall> = {
    direct: (n) => ({ id: `c${n}`, name: 'work', arguments: { n } }),
    tool_call: (n) => ({ id: `c${n}`, name: 'tool_call', arguments: { calls: [{ name: 'work', arguments: { n } }] } }),
    lookup: (n) => ({ id: `c${n}`, name: 'tool_search', arguments: { queries: ['do work'] } }),
  };
  const overhead: Record<string, { p50_ms: number; p99_ms: number; max_ms: number; calls: number }> = {};
  for (const [shape, make] of Object.entries(shapes)) {
    const samples: number[] = [];
    for (let i = 0; i < calls + 1000; i += 1) {
      const context = await daemon.turnContext(tenant, session.id);
      inExecutor = 0;
      const started = performance.now();
      const [result] = await dispatcher.dispatch(context, [make(i)]);
      const total = performance.now() - started;
      if (result?.ok !== true) throw new Error(`bench call failed: ${JSON.stringify(result)}`);
      if (i >= 1000) samples.push(total - inExecutor); // the first 1,000 warm up the JIT
    }
    samples.sort((a, b) => a - b);
    overhead[shape] = {
      p50_ms: round(percentile(samples, 50)),
      p99_ms: round(percentile(samples, 99)),
      max_ms: round(samples[samples.length - 1] ?? NaN),
      calls,
    };
  }
  executors.run = run;

  // 2. Approvals decided and executed per second.
  const held: { id: string; digest: string }[] = [];
  for (let i = 0; i < approvalCount; i += 1) {
    const { results } = await client.dispatch(session.id, [{ id: `h${i}`, name: 'approve_me', arguments: { n: i } }]);
    const id = results[0]?.approval_id;
    if (id === undefined) throw new Error('the call was not held');
    held.push({ id, digest: '' });
  }
  const listed = await client.listApprovals({ limit: 1000, session: session.id });
  const digests = new Map(listed.approvals.map((approval) => [approval.id, approval.digest]));
  for (const entry of held)
    entry.digest = digests.get(entry.id) ?? (await client.getApproval(entry.id)).approval.digest;
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (next < held.length) {
        const entry = held[next++];
        if (entry === undefined) break;
        await client.decide(entry.id, {
          decision: 'approve',
          by: 'bench-approver',
          tool: 'approve_me',
          digest: entry.digest,
        });
      }
    }),
  );
  const decidedMs = performance.now() - started;
  const pending = new Set(held.map((entry) => entry.id));
  while (pending.size > 0) {
    for (const id of [...pending]) {
      const { approval } = await client.getApproval(id);
      if (approval.result !== undefined) pending.delete(id);
    }
    if (pending.size > 0) await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const executedMs = performance.now() - started;

  const report = {
    date: new Date().toISOString(),
    overhead_per_call: overhead,
    approvals: {
      count: approvalCount,
      decided_per_s: Math.round(approvalCount / (decidedMs / 1000)),
      decided_and_executed_per_s: Math.round(approvalCount / (executedMs / 1000)),
    },
  };
  if (values.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else {
    process.stdout.write('dispatch overhead per call (excluding the executor):\n');
    for (const [shape, stats] of Object.entries(overhead)) {
      process.stdout.write(
        `  ${shape.padEnd(10)} p50 ${stats.p50_ms} ms  p99 ${stats.p99_ms} ms  max ${stats.max_ms} ms  (${stats.calls} calls)\n`,
      );
    }
    process.stdout.write(
      `approvals: ${approvalCount} decided at ${report.approvals.decided_per_s}/s; decided and executed at ${report.approvals.decided_and_executed_per_s}/s\n`,
    );
  }
  await nc.close();
  await daemon.close();
  await cleanup(config);
}

main().catch((error: Error) => {
  process.stderr.write(`bench failed: ${error.stack ?? error.message}\n`);
  process.exitCode = 1;
});
