import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { connect, type NatsConnection } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolsearchClient } from '@toolsearch/client';
import type { ActivityEvent, ToolsearchWireError } from '@toolsearch/proto';
import type { Daemon } from '../src/daemon';
import {
  cleanup,
  collect,
  daemonFixture,
  eventually,
  exited,
  freePort,
  serveExec,
  startDaemon,
  tenantId,
  TEST_KEYS,
  testConfig,
} from './harness';

const FIXTURE = fileURLToPath(new URL('./fixtures/file-driven-mcp-server.mjs', import.meta.url));
const REDIS_CONF = fileURLToPath(new URL('../../../infra/redis.conf', import.meta.url));
const obj = { type: 'object', properties: {} };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('an MCP server that crashes mid-call, or is slow', () => {
  const TENANT = tenantId('flaky');
  const fixture = daemonFixture({ dispatch: { timeoutMs: 600 } });
  const dir = mkdtempSync(join(tmpdir(), 'toolsearch-flaky-'));
  const toolsFile = join(dir, 'tools.json');
  const tools = JSON.stringify([
    { name: 'crash', description: 'Crash the server.', inputSchema: obj },
    { name: 'slow_read', description: 'Read slowly.', inputSchema: obj, annotations: { readOnlyHint: true } },
    { name: 'quick_read', description: 'Read quickly.', inputSchema: obj, annotations: { readOnlyHint: true } },
  ]);
  let client: ToolsearchClient;
  let session: string;

  beforeAll(async () => {
    const daemon = await fixture.start();
    client = await fixture.client(TENANT);
    writeFileSync(toolsFile, tools);
    await daemon.attachMcp(TENANT, {
      name: 'flaky',
      transport: { type: 'stdio', command: process.execPath, args: [FIXTURE, toolsFile] },
      supports_parallel_tool_calls: false,
    });
    // Another source, so the session keeps its bridge and listing while the flaky server is away.
    await client.putToolset({
      id: 'notes',
      kind: 'plugin',
      label: 'notes',
      tools: [{ name: 'add_note', description: 'Add a note.', inputSchema: obj }],
    });
    ({
      session: { id: session },
    } = await client.openSession({ grant: { toolsets: ['mcp-flaky', 'notes'] }, model: { contextLength: 128_000 } }));
  }, 30_000);
  afterAll(() => fixture.stop());

  const status = async () =>
    (await client.listToolsets()).toolsets.find((toolset) => toolset.id === 'mcp-flaky')?.unavailable;

  it('a crash mid-call is a clear error result; the tools show unavailable, then come back after reconnecting', async () => {
    const started = Date.now();
    const { results } = await client.dispatch(session, [
      { id: 'c1', name: 'flaky__crash', arguments: { stay_down: true } },
    ]);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(results[0]).toMatchObject({ ok: false, status: 'done', tool: 'flaky__crash' });
    expect(['NO_EXECUTOR', 'TIMEOUT']).toContain(results[0]?.error?.code);
    expect(results[0]?.error?.message).toContain('flaky');

    // Down: listed as unavailable, and a call fails at once instead of waiting for a timeout.
    await eventually(async () => expect(await status()).toBeDefined());
    // The listing in tool_search's description says the server is away and how many tools it has.
    const down = await client.assemble(session);
    expect(JSON.stringify(down.tools)).toMatch(/flaky[^"]*3/);
    const refused = Date.now();
    const { results: whileDown } = await client.dispatch(session, [
      { id: 'c2', name: 'flaky__quick_read', arguments: {} },
    ]);
    expect(whileDown[0]?.error?.code).toBe('UNKNOWN_TOOL');
    expect(Date.now() - refused).toBeLessThan(500);

    // Fixed: the pool's backoff reconnects, the tools are back, and calls work again.
    writeFileSync(toolsFile, tools);
    await eventually(async () => expect(await status()).toBeUndefined(), 15_000);
    const { results: back } = await client.dispatch(session, [{ id: 'c3', name: 'flaky__quick_read', arguments: {} }]);
    expect(back[0]).toMatchObject({ ok: true, tool: 'flaky__quick_read' });
  }, 30_000);

  it('a slow call times out on its own; its parallel sibling answers at its own speed', async () => {
    writeFileSync(toolsFile, tools);
    await eventually(async () => expect(await status()).toBeUndefined(), 15_000);
    const events = collect<ActivityEvent>(4);
    const subscription = client.onActivity(session, events.push);
    await sleep(50);
    const started = Date.now();
    const { results } = await client.dispatch(session, [
      {
        id: 'b1',
        name: 'tool_call',
        arguments: {
          calls: [
            { name: 'flaky__slow_read', arguments: { delay_ms: 5000 } },
            { name: 'flaky__quick_read', arguments: {} },
          ],
        },
      },
    ]);
    const elapsed = Date.now() - started;
    subscription.unsubscribe();
    const [slow, quick] = (results[0]?.data as { results: { ok: boolean; error: { code: string } | null }[] }).results;
    expect(slow?.error?.code).toBe('TIMEOUT');
    expect(quick?.ok).toBe(true);
    // The whole turn took about the timeout (600 ms), not the slow tool's 5 s.
    expect(elapsed).toBeLessThan(2500);
    const finished = (await events.done).filter((event) => event.phase === 'finish');
    const quickFinish = finished.find((event) => event.tool === 'flaky__quick_read');
    expect(quickFinish?.duration_ms).toBeLessThan(400);
    // And the server is still healthy for the next call.
    const { results: next } = await client.dispatch(session, [{ id: 'b2', name: 'flaky__quick_read', arguments: {} }]);
    expect(next[0]?.ok).toBe(true);
  }, 30_000);
});

/**
 * Redis of this test's own, with the project's infra/redis.conf (AOF on), on a free port. Its ACL
 * file leaves the default user open: this file is about restarts; redis-acl.int.test.ts runs the
 * same redis.conf with generated users.
 */
function startRedis(port: number, dir: string): ChildProcess {
  const acl = join(dir, 'users.acl');
  writeFileSync(acl, 'user default on nopass ~* &* +@all\n');
  const args = [REDIS_CONF, '--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--aclfile', acl];
  return spawn('redis-server', args, { stdio: 'ignore' });
}

describe('a Redis restart (AOF)', () => {
  const servers: ChildProcess[] = [];
  const daemons: Daemon[] = [];
  const connections: NatsConnection[] = [];
  afterAll(async () => {
    for (const nc of connections) await nc.close().catch(() => undefined);
    for (const daemon of daemons) await daemon.close();
    for (const server of servers) server.kill('SIGKILL');
  });

  it('keeps descriptors and held calls; while it is down, what needs it fails fast and the rest keeps working', async () => {
    const redisPort = await freePort();
    const redisDir = mkdtempSync(join(tmpdir(), 'toolsearch-redis-fault-'));
    servers.push(startRedis(redisPort, redisDir));
    const natsPort = await freePort();
    servers.push(
      spawn(
        'nats-server',
        ['-a', '127.0.0.1', '-p', String(natsPort), '-js', '-sd', mkdtempSync(join(tmpdir(), 'ts-nats-'))],
        {
          stdio: 'ignore',
        },
      ),
    );
    const redisUrl = `redis://127.0.0.1:${redisPort}`;
    const natsUrl = `nats://127.0.0.1:${natsPort}`;
    await eventually(async () => {
      const probe = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
      probe.on('error', () => undefined);
      try {
        await probe.connect();
        await probe.ping();
      } finally {
        probe.disconnect();
      }
    });
    const tenant = tenantId('redis');
    const config = testConfig({
      nats: { url: natsUrl },
      redis: { url: redisUrl },
      tenants: { [tenant]: { policy: { approval: { approvers: ['alice'] } } } },
    });
    const daemon = await eventually(() => startDaemon(config), 15_000);
    daemons.push(daemon);
    const nc = await connect({ servers: natsUrl });
    connections.push(nc);
    const runs = await serveExec(nc, tenant, 'ops', (request) => ({ done: request.tool }));
    const client = new ToolsearchClient(nc, tenant, { timeoutMs: 3000, credential: TEST_KEYS.test });
    await client.putToolset({
      id: 'ops',
      kind: 'plugin',
      label: 'ops',
      tools: [
        { name: 'drop_table', description: 'Drop a database table.', inputSchema: obj, risk: 'high' },
        { name: 'table_stats', description: 'Row counts of a table.', inputSchema: obj },
      ],
    });
    const { session } = await client.openSession({ grant: { toolsets: ['ops'] }, model: { contextLength: 128_000 } });
    const { results } = await client.dispatch(session.id, [
      { id: 'h1', name: 'drop_table', arguments: { table: 'users' } },
    ]);
    const approvalId = results[0]?.approval_id ?? '';
    expect(results[0]?.status).toBe('pending_approval');
    // infra/redis.conf fsyncs the AOF every second: wait past it, then kill Redis hard.
    await sleep(1500);
    servers[0]?.kill('SIGKILL');
    if (servers[0] !== undefined) await exited(servers[0]);

    // Down. Reads of a session this replica holds keep working...
    expect((await client.search(session.id, ['table statistics'])).ok).toBe(true);
    expect((await client.assemble(session.id)).ok).toBe(true);
    // ...what needs Redis fails fast with a clear code...
    for (const attempt of [
      () => client.openSession({ grant: { toolsets: ['ops'] }, model: { contextLength: 0 } }),
      () => client.listApprovals(),
      () => client.dispatch(session.id, [{ id: 'd1', name: 'drop_table', arguments: { table: 'orders' } }]),
    ]) {
      const started = Date.now();
      const error = (await attempt().catch((caught: unknown) => caught)) as ToolsearchWireError;
      expect(error.code).toBe('UNAVAILABLE');
      expect(error.message).toMatch(/retry/);
      expect(Date.now() - started).toBeLessThan(1000);
    }
    // ...and the readiness probe says why.
    const notReady = await fetch(`${daemon.httpAddress}/readyz`);
    expect(notReady.status).toBe(503);
    expect(await notReady.json()).toMatchObject({ checks: { redis: false, nats: true } });

    // Back, same port and folder: the AOF brings everything back.
    servers[0] = startRedis(redisPort, redisDir);
    await eventually(async () => expect((await fetch(`${daemon.httpAddress}/readyz`)).status).toBe(200), 15_000);
    const { approvals } = await eventually(() => client.listApprovals());
    expect(approvals.map((approval) => approval.id)).toEqual([approvalId]);

    // A fresh replica (nothing in memory) serves the session from its descriptor in Redis...
    await daemon.close();
    const fresh = await startDaemon(config);
    daemons.push(fresh);
    expect((await client.assemble(session.id)).ok).toBe(true);
    // ...and the held call, approved, runs exactly once.
    const [held] = approvals;
    const alice = new ToolsearchClient(nc, tenant, { timeoutMs: 3000, credential: TEST_KEYS.alice });
    const { approval } = await alice.decide(approvalId, {
      decision: 'approve',
      tool: held?.tool ?? '',
      digest: held?.digest ?? '',
      wait_ms: 5000,
    });
    expect(approval.result).toMatchObject({ ok: true });
    await sleep(300);
    expect(runs.filter((run) => run.tool === 'drop_table')).toHaveLength(1);
    expect(runs[0]?.approval_id).toBe(approvalId);
    await fresh.close();
    await cleanup(config).catch(() => undefined);
  }, 60_000);
});
