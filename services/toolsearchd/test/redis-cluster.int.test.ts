import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Queue, Worker } from 'bullmq';
import { Cluster } from 'ioredis';
import type { NatsConnection } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolsearchClient } from '@toolsearch/client';
import { ENDPOINTS, ToolsearchWireError, WorkerJobSchema } from '@toolsearch/proto';
import type { Daemon } from '../src/daemon';
import { clientFor, eventually, serveExec, startDaemon, tenantId, testConfig } from './harness';
import {
  generateAcl,
  keySlot,
  LocalRedis,
  redisBinariesMissing,
  startCluster,
  workerPasswordVariable,
  type RedisNode,
} from './redis-topologies';

const missing = redisBinariesMissing();
if (missing !== undefined) console.warn(`skipping the Redis Cluster tests: ${missing}`);

const obj = { type: 'object', properties: {} };
const MCP_FIXTURE = fileURLToPath(new URL('./fixtures/file-driven-mcp-server.mjs', import.meta.url));
const namespace = testConfig().namespace;
const prefix = namespace.redisPrefix;

/**
 * Three tenants whose hash tags fall in the three thirds of the slot space, which
 * `redis-cli --cluster create` gives to the three masters (checked against CLUSTER SLOTS below).
 */
function tenantsOnThreeMasters(): string[] {
  const found: (string | undefined)[] = [undefined, undefined, undefined];
  while (found.includes(undefined)) {
    const tenant = tenantId('cl');
    const third = Math.min(2, Math.floor(keySlot(`${prefix}{${tenant}}:x`) / 5462));
    found[third] ??= tenant;
  }
  return found as string[];
}

const toolset = {
  id: 'ops',
  kind: 'plugin',
  label: 'ops',
  tools: [
    { name: 'ping', description: 'Ping a host.', inputSchema: obj },
    { name: 'table_stats', description: 'Row counts of a table.', inputSchema: obj },
    { name: 'drop_table', description: 'Drop a database table.', inputSchema: obj, risk: 'high' },
  ],
};

/** Keys every tenant of this test leaves behind: descriptors, token index, held calls, audit, worker queue, rate limits. */
const EXPECTED_KINDS = ['session', 'sessions', 'tokenof', 'approval', 'audit', 'w', 'rl'];

describe.skipIf(missing !== undefined)('toolsearchd on a Redis Cluster of three masters (ACLs on)', () => {
  const tenants = tenantsOnThreeMasters();
  const local = new LocalRedis();
  const natsConnections: NatsConnection[] = [];
  let masters: RedisNode[] = [];
  let secrets: Record<string, string> = {};
  let daemon: Daemon | undefined;
  const seeds = () => masters.map((node) => `127.0.0.1:${node.port}`);

  beforeAll(async () => {
    const acl = await generateAcl(local.dir, prefix, tenants);
    secrets = acl.secrets;
    masters = await startCluster(local, acl.aclFile);
    const config = testConfig({
      namespace,
      redis: {
        mode: 'cluster',
        nodes: seeds(),
        username: secrets['TOOLSEARCH_REDIS_USERNAME'],
        password: secrets['TOOLSEARCH_REDIS_PASSWORD'],
      },
      policy: { rateLimits: [{ scope: 'session', limit: 2, windowMs: 60_000, tools: ['ping'] }] },
      mcp: { allowedCommands: [process.execPath] },
    });
    daemon = await startDaemon(config);
  }, 60_000);

  afterAll(async () => {
    for (const nc of natsConnections) await nc.close().catch(() => undefined);
    await daemon?.close();
    await local.stop();
  });

  const clientOf = async (tenant: string): Promise<{ client: ToolsearchClient; nc: NatsConnection }> => {
    const opened = await clientFor(tenant);
    natsConnections.push(opened.nc);
    return opened;
  };

  it('serves the contract, holds and runs an approved call exactly once, and rate-limits, for each tenant', async () => {
    for (const tenant of tenants) {
      const { client, nc } = await clientOf(tenant);
      const executed = await serveExec(nc, tenant, 'ops');
      await client.putToolset(toolset);
      await client.putToolset({ ...toolset, id: 'spare', label: 'spare' });
      await client.deleteToolset('spare');
      expect((await client.listToolsets()).toolsets.map((entry) => entry.id)).toEqual(['ops']);
      const { session } = await client.openSession({ grant: { toolsets: ['ops'] }, model: { contextLength: 128_000 } });
      expect((await client.assemble(session.id)).ok).toBe(true);
      const found = await client.search(session.id, ['row counts of a table']);
      expect((found.result as { results: { matches: string[] }[] }).results[0]?.matches).toContain('table_stats');
      expect((await client.describe(session.id, ['ops__table_stats', 'table_stats'])).ok).toBe(true);

      // Rate limit (an EVAL over several keys of the tenant) and a plain call.
      const { results } = await client.dispatch(session.id, [
        { id: 'p1', name: 'ping', arguments: {} },
        { id: 'p2', name: 'ping', arguments: {} },
        { id: 'p3', name: 'ping', arguments: {} },
      ]);
      expect(results.map((result) => result.error?.code ?? 'ok')).toEqual(['ok', 'ok', 'RATE_LIMITED']);

      // A held call (MULTI over the tenant's keys), two approvers racing, run exactly once.
      const held = await client.dispatch(session.id, [{ id: 'd1', name: 'drop_table', arguments: { t: 'x' } }]);
      const id = held.results[0]?.approval_id ?? '';
      expect(held.results[0]?.status).toBe('pending_approval');
      const { approval } = await client.getApproval(id);
      expect((await client.listApprovals()).approvals.map((entry) => entry.id)).toEqual([id]);
      const decision = { decision: 'approve' as const, by: 'test', tool: 'drop_table', digest: approval.digest };
      const outcomes = await Promise.allSettled([
        client.decide(id, { ...decision, wait_ms: 5000 }),
        client.decide(id, { ...decision, wait_ms: 5000 }),
      ]);
      const refused = outcomes.filter((outcome) => outcome.status === 'rejected');
      expect(refused.map((outcome) => (outcome.reason as ToolsearchWireError).code)).toEqual(['ALREADY_DECIDED']);
      const done = (await client.getApproval(id)).approval;
      expect(done).toMatchObject({ state: 'done', result: { ok: true } });
      expect(executed.filter((request) => request.tool === 'drop_table')).toHaveLength(1);
      expect(executed.filter((request) => request.tool === 'ping')).toHaveLength(2);

      // Operator views over the tenant's keys: sessions (SMEMBERS + MGET), quotas, audit stream.
      expect((await client.listSessions()).sessions.map((entry) => entry.id)).toEqual([session.id]);
      expect((await client.showSession(session.id)).ok).toBe(true);
      const quotas = (await client.showTenant()).quotas;
      expect(quotas['sessions']?.used).toBe(1);
      expect(quotas['heldApprovals']?.used).toBe(0);
      const activity = await client.recentActivity({ session: session.id });
      expect(activity.records.map((record) => record.outcome)).toContain('RATE_LIMITED');

      // An MCP server of the tenant's own: attached, its tool called through the dispatcher, detached.
      const tools = join(local.dir, `tools-${tenant}.json`);
      writeFileSync(tools, JSON.stringify([{ name: 'echo', description: 'Echo it.', inputSchema: obj }]));
      const attached = await client.call(ENDPOINTS.mcpAttach, {
        name: 'files',
        transport: {
          type: 'stdio',
          command: process.execPath,
          args: [MCP_FIXTURE, tools, join(local.dir, `calls-${tenant}`)],
        },
      });
      expect(attached).toMatchObject({ toolset: 'mcp-files', tools: 1 });
      const viaMcp = await client.openSession({
        grant: { toolsets: ['mcp-files'] },
        model: { contextLength: 128_000 },
      });
      const echoed = await client.dispatch(viaMcp.session.id, [{ id: 'e1', name: 'files__echo', arguments: {} }]);
      expect(echoed.results[0]).toMatchObject({ ok: true });
      expect(await client.call(ENDPOINTS.mcpDetach, { name: 'files' })).toMatchObject({ detached: true });
      await client.closeSession(viaMcp.session.id);
    }
  }, 60_000);

  it("gives each tenant's subagent job to that tenant's worker user on the cluster, and nothing else", async () => {
    for (const tenant of tenants) {
      const { client } = await clientOf(tenant);
      const { session } = await client.openSession({ grant: { toolsets: ['ops'] }, model: { contextLength: 128_000 } });
      const spawned = await client.spawn({
        parent: session.id,
        role: 'subagent',
        grant: { toolsets: ['ops'] },
        task: {},
      });
      const connection = new Cluster(
        masters.map((node) => ({ host: '127.0.0.1', port: node.port })),
        {
          redisOptions: {
            username: `worker-${tenant}`,
            password: secrets[workerPasswordVariable(tenant)] ?? '',
            maxRetriesPerRequest: null,
          },
        },
      );
      connection.on('error', () => undefined);
      const worker = new Worker(spawned.job.queue, async (job) => WorkerJobSchema.parse(job.data).session, {
        connection,
        prefix: spawned.job.prefix,
      });
      try {
        const taken = await new Promise<unknown>((resolve, reject) => {
          worker.on('completed', (_job, value) => resolve(value));
          worker.on('failed', (_job, error) => reject(error));
        });
        expect(taken).toBe(spawned.session.id);
        // The approvals queue (another hash tag, the daemon's) stays out of its reach.
        const approvals = new Queue('approvals', { connection, prefix: `${prefix}{_approvals}` });
        approvals.on('error', () => undefined);
        await expect(approvals.add('run', { tenant, id: 'a-x' })).rejects.toThrow(/NOPERM|can't access/);
        await approvals.close();
      } finally {
        await worker.close();
        connection.disconnect();
      }
      await client.closeSession(session.id);
    }
  });

  /** The port of the master serving each slot, from CLUSTER SLOTS. */
  const slotOwners = async (): Promise<(slot: number) => number | undefined> => {
    const admin = local.admin(masters[0]?.port ?? 0);
    const slots = (await admin.call('CLUSTER', 'SLOTS')) as [number, number, [string, number]][];
    admin.disconnect();
    return (slot: number) => slots.find(([from, to]) => slot >= from && slot <= to)?.[2][1];
  };

  it("keeps each tenant's keys on one master, and the three tenants on three different masters", async () => {
    const ownerOf = await slotOwners();
    // Which tenants' keys each master holds, read from the masters themselves.
    const tagsByMaster = new Map<number, Map<string, string[]>>();
    for (const node of masters) {
      const redis = local.admin(node.port);
      const byTag = new Map<string, string[]>();
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
        cursor = next;
        for (const key of keys) {
          const tag = /^[^{]*\{([^}]+)\}/.exec(key)?.[1] ?? '(untagged)';
          byTag.set(tag, [...(byTag.get(tag) ?? []), key.slice(key.indexOf('}') + 2)]);
        }
      } while (cursor !== '0');
      redis.disconnect();
      tagsByMaster.set(node.port, byTag);
    }
    const homes = tenants.map((tenant) => ownerOf(keySlot(`${prefix}{${tenant}}:x`)));
    expect(new Set(homes).size).toBe(3);
    tenants.forEach((tenant, index) => {
      for (const [port, byTag] of tagsByMaster) {
        const kinds = (byTag.get(tenant) ?? []).map((key) => key.split(':')[0]);
        if (port !== homes[index]) expect(kinds).toEqual([]);
        else for (const kind of EXPECTED_KINDS) expect(kinds).toContain(kind);
      }
    });
  });

  it('answers UNAVAILABLE for the tenant whose master is lost, serves the others meanwhile, and recovers', async () => {
    const ownerOf = await slotOwners();
    const [served = '', , lost = ''] = tenants;
    const victim = masters.find((node) => node.port === ownerOf(keySlot(`${prefix}{${lost}}:x`)));
    if (victim === undefined) throw new Error('no master for the tenant');
    const lostClient = (await clientOf(lost)).client;
    const servedClient = (await clientOf(served)).client;
    const open = (client: ToolsearchClient) =>
      client.openSession({ grant: { toolsets: ['ops'] }, model: { contextLength: 128_000 } });
    await local.kill(victim);
    const codes: string[] = [];
    let slowestRefusalMs = 0;
    for (let attempt = 0; attempt < 10; attempt++) {
      const started = performance.now();
      await open(lostClient).then(
        () => codes.push('ok'),
        (error: unknown) => codes.push(error instanceof ToolsearchWireError ? error.code : String(error)),
      );
      slowestRefusalMs = Math.max(slowestRefusalMs, performance.now() - started);
      // Another tenant, on another master, is served throughout (its quotas read only its own keys;
      // opening a session would also write its token's owner, a key without the tenant's tag).
      expect((await servedClient.showTenant()).ok).toBe(true);
    }
    expect(new Set(codes)).toEqual(new Set(['UNAVAILABLE']));
    const restarted = performance.now();
    await local.restart(victim);
    // Back by itself (the node keeps its slots; this test's Redis keeps no data across the restart).
    await eventually(async () => expect((await open(lostClient)).session.id).toMatch(/\S/), 30_000);
    console.log(
      `Redis Cluster master lost: 10 of 10 opens UNAVAILABLE, the slowest refusal ${Math.round(slowestRefusalMs)} ms; ` +
        `served again ${Math.round(performance.now() - restarted)} ms after the restart began`,
    );
  }, 60_000);
});
