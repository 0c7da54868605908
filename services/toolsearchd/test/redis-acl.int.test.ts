import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Queue, Worker } from 'bullmq';
import { Redis, type RedisOptions } from 'ioredis';
import type { NatsConnection } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolsearchClient } from '@toolsearch/client';
import { tenantKeyPrefix, WorkerJobSchema, workerQueueName, workerQueuePrefix } from '@toolsearch/proto';
import type { DaemonConfig } from '../src/config';
import type { Daemon } from '../src/daemon';
import { cleanup, clientFor, eventually, exited, freePort, startDaemon, tenantId, testConfig } from './harness';

// infra/redis.conf as shipped (ACLs on), with an ACL file written by `toolsearch credentials
// redis`: the daemon runs as its own user, each tenant's workers as theirs, and a worker reaches
// its own tenant's worker queues and nothing else of the deployment.
const CLI = fileURLToPath(new URL('../../toolsearch-cli/bin/toolsearch.mjs', import.meta.url));
const REDIS_CONF = fileURLToPath(new URL('../../../infra/redis.conf', import.meta.url));
const obj = { type: 'object', properties: {} };
const DENIED = /NOPERM|can't access/;

function cli(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr });
    });
  });
}

const passwordsOf = (secrets: Record<string, string>) =>
  Object.entries(secrets)
    .filter(([name]) => name.includes('PASSWORD'))
    .map(([, value]) => value);

const envFile = (path: string): Record<string, string> =>
  Object.fromEntries(
    readFileSync(path, 'utf8')
      .split('\n')
      .filter((line) => line.includes('='))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );

describe('Redis ACL users (infra/redis.conf, generated users.acl)', () => {
  const ACME = tenantId('acme');
  const GLOBEX = tenantId('globex');
  const dir = mkdtempSync(join(tmpdir(), 'toolsearch-redis-acl-'));
  const namespace = testConfig().namespace;
  const prefix = namespace.redisPrefix;
  const redisConnections: Redis[] = [];
  const natsConnections: NatsConnection[] = [];
  let server: ChildProcess | undefined;
  let port = 0;
  let secrets: Record<string, string> = {};
  let config: DaemonConfig | undefined;
  let daemon: Daemon | undefined;

  /** A connection to this test's Redis, closed at the end. */
  const redisAs = (options: RedisOptions = {}) => {
    const redis = new Redis({ host: '127.0.0.1', port, maxRetriesPerRequest: null, ...options });
    redis.on('error', () => undefined);
    redisConnections.push(redis);
    return redis;
  };
  const workerOf = (tenant: string) =>
    redisAs({
      username: `worker-${tenant}`,
      password: secrets[`TOOLSEARCH_WORKER_REDIS_PASSWORD_${tenant.toUpperCase().replace(/-/g, '_')}`] ?? '',
    });
  const tenantClient = async (tenant: string): Promise<ToolsearchClient> => {
    const { nc, client } = await clientFor(tenant);
    natsConnections.push(nc);
    return client;
  };

  beforeAll(async () => {
    const generated = await cli([
      'credentials',
      'redis',
      '--tenants',
      `${ACME},${GLOBEX}`,
      '--prefix',
      prefix,
      '--acl-file',
      join(dir, 'users.acl'),
      '--secrets-file',
      join(dir, 'secrets.env'),
    ]);
    expect(generated.stderr).toBe('');
    expect(generated.code).toBe(0);
    secrets = envFile(join(dir, 'secrets.env'));
    // The summary names users and variables, never a password.
    expect(passwordsOf(secrets)).toHaveLength(3);
    for (const password of passwordsOf(secrets)) expect(generated.stdout).not.toContain(password);

    port = await freePort();
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--aclfile', join(dir, 'users.acl')];
    server = spawn('redis-server', [REDIS_CONF, ...args, '--appendonly', 'no'], { stdio: 'ignore' });
    // Up once it answers at all: to an anonymous client, with NOAUTH.
    await eventually(async () => {
      const probe = new Redis({
        host: '127.0.0.1',
        port,
        lazyConnect: true,
        retryStrategy: () => null,
        // ioredis's ready check sends INFO, which an anonymous client may not.
        enableReadyCheck: false,
      });
      probe.on('error', () => undefined);
      try {
        await probe.connect();
        await expect(probe.ping()).rejects.toThrow(/NOAUTH/);
      } finally {
        probe.disconnect();
      }
    });

    const password = encodeURIComponent(secrets['TOOLSEARCH_REDIS_PASSWORD'] ?? '');
    expect(secrets['TOOLSEARCH_REDIS_USERNAME']).toBe('toolsearchd');
    config = testConfig({ namespace, redis: { url: `redis://toolsearchd:${password}@127.0.0.1:${port}` } });
    daemon = await startDaemon(config);
  });

  afterAll(async () => {
    for (const redis of redisConnections) redis.disconnect();
    for (const nc of natsConnections) await nc.close().catch(() => undefined);
    await daemon?.close();
    if (config !== undefined) await cleanup(config);
    server?.kill('SIGTERM');
    if (server !== undefined) await exited(server);
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes the secrets file for its owner only and the ACL file with hashes only', () => {
    expect(statSync(join(dir, 'secrets.env')).mode & 0o777).toBe(0o600);
    const acl = readFileSync(join(dir, 'users.acl'), 'utf8');
    expect(acl).toMatch(/^user default off /m);
    for (const password of passwordsOf(secrets)) expect(acl).not.toContain(password);
  });

  it('lets the default user do nothing', async () => {
    const anonymous = redisAs({ maxRetriesPerRequest: 0, enableReadyCheck: false });
    await expect(anonymous.get(`${tenantKeyPrefix(prefix, ACME)}session:x`)).rejects.toThrow(/NOAUTH/);
    await expect(anonymous.set('anything', '1')).rejects.toThrow(/NOAUTH/);
    await expect(anonymous.call('AUTH', 'default', 'guess')).rejects.toThrow(/WRONGPASS/);
  });

  it('keeps the daemon user to its prefix', async () => {
    const password = secrets['TOOLSEARCH_REDIS_PASSWORD'] ?? '';
    const daemonUser = redisAs({ username: 'toolsearchd', password, maxRetriesPerRequest: 0 });
    await expect(daemonUser.set('elsewhere:key', '1')).rejects.toThrow(DENIED);
    await expect(daemonUser.keys('*')).rejects.toThrow(DENIED);
    await expect(daemonUser.call('CONFIG', 'SET', 'aclfile', '/tmp/x')).rejects.toThrow(DENIED);
  });

  it('serves a tenant whose worker takes its job from the returned prefix, and reaches nothing else', async () => {
    const acme = await tenantClient(ACME);
    await acme.putToolset({
      id: 'ops',
      kind: 'plugin',
      label: 'ops',
      tools: [
        { name: 'table_stats', description: 'Row counts of a table.', inputSchema: obj },
        { name: 'drop_table', description: 'Drop a database table.', inputSchema: obj, risk: 'high' },
      ],
    });
    const { session } = await acme.openSession({ grant: { toolsets: ['ops'] }, model: { contextLength: 128_000 } });
    // A held call: the approvals queue runs under the daemon user too.
    const { results } = await acme.dispatch(session.id, [{ id: 'h1', name: 'drop_table', arguments: {} }]);
    const approvalId = results[0]?.approval_id ?? '';
    expect(approvalId).not.toBe('');
    const spawned = await acme.spawn({ parent: session.id, role: 'subagent', grant: { toolsets: ['ops'] }, task: {} });
    expect(spawned.job).toEqual({
      queue: workerQueueName('subagent', ACME),
      id: spawned.session.id,
      prefix: workerQueuePrefix(prefix, ACME),
    });

    // Another tenant's job, waiting in its own queue.
    const globex = await tenantClient(GLOBEX);
    await globex.putToolset({
      id: 'ops',
      kind: 'plugin',
      label: 'ops',
      tools: [{ name: 'ping', description: 'Ping.' }],
    });
    const parent = await globex.openSession({ grant: { toolsets: ['ops'] }, model: { contextLength: 128_000 } });
    const other = await globex.spawn({
      parent: parent.session.id,
      role: 'subagent',
      grant: { toolsets: ['ops'] },
      task: {},
    });

    const worker = new Worker(spawned.job.queue, async (job) => WorkerJobSchema.parse(job.data).session, {
      connection: workerOf(ACME),
      prefix: spawned.job.prefix,
    });
    try {
      const taken = await new Promise<unknown>((resolve, reject) => {
        worker.on('completed', (_job, value) => resolve(value));
        worker.on('failed', (_job, error) => reject(error));
      });
      expect(taken).toBe(spawned.session.id);
    } finally {
      await worker.close();
    }

    const probe = workerOf(ACME);
    // Not another tenant's worker queue, by BullMQ or by hand.
    const foreign = new Queue(other.job.queue, { connection: probe, prefix: other.job.prefix });
    foreign.on('error', () => undefined);
    await expect(foreign.getJobCounts()).rejects.toThrow(DENIED);
    await expect(foreign.add('task', { steal: true })).rejects.toThrow(DENIED);
    await foreign.close();
    await expect(probe.hgetall(`${other.job.prefix}:${other.job.queue}:${other.job.id}`)).rejects.toThrow(DENIED);
    // Not session descriptors or tokens (its own tenant's included), and no listing of key names.
    await expect(probe.get(`${tenantKeyPrefix(prefix, ACME)}session:${session.id}`)).rejects.toThrow(DENIED);
    await expect(probe.smembers(`${tenantKeyPrefix(prefix, ACME)}sessions`)).rejects.toThrow(DENIED);
    await expect(probe.scan('0', 'MATCH', `${prefix}*`)).rejects.toThrow(DENIED);
    await expect(probe.keys('*')).rejects.toThrow(DENIED);
    // Not approvals: no decision written, the held job neither read nor promoted.
    await expect(
      probe.set(`${tenantKeyPrefix(prefix, ACME)}approval:${approvalId}:decision`, '{"decision":"approve"}'),
    ).rejects.toThrow(DENIED);
    await expect(probe.zrange(`${prefix}{_approvals}:approvals:delayed`, 0, -1)).rejects.toThrow(DENIED);
    const approvals = new Queue('approvals', { connection: probe, prefix: `${prefix}{_approvals}` });
    approvals.on('error', () => undefined);
    await expect(approvals.add('run', { tenant: ACME, id: approvalId })).rejects.toThrow(DENIED);
    await approvals.close();
    // Nor a script that names a key it may not touch.
    await expect(
      probe.eval(`return redis.call('get', KEYS[1])`, 1, `${tenantKeyPrefix(prefix, ACME)}approval:${approvalId}`),
    ).rejects.toThrow(DENIED);
    expect((await acme.getApproval(approvalId)).approval.state).toBe('pending');
  });
});
