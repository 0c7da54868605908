import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { connect, headers, type NatsConnection } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolsearchClient } from '@toolsearch/client';
import { daemonProcess, eventually, exited, freePort, serveExec } from './harness';

// The deployment we ship, run for real: nats-server with infra/nats.conf, redis-server with
// infra/redis.conf and an ACL file from `toolsearch credentials redis`, passwords from
// `toolsearch credentials nats`, and toolsearchd as its own process with authentication on
// (no `insecure`). Each server is this file's own, on a free port.
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CLI = join(ROOT, 'services/toolsearch-cli/bin/toolsearch.mjs');
const PREFIX = 'tsdeploy:';
const obj = { type: 'object', properties: {} };
const model = { contextLength: 128_000 };

const envFile = (path: string): Record<string, string> =>
  Object.fromEntries(
    readFileSync(path, 'utf8')
      .split('\n')
      .filter((line) => line.includes('='))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );

/** Waits for a port to accept connections (a server's listener is up), or fails with its log. */
async function started(child: ChildProcess, port: number, log: string[]): Promise<void> {
  const { createConnection } = await import('node:net');
  for (let i = 0; i < 100; i += 1) {
    if (child.exitCode !== null) throw new Error(`server exited: ${log.join('')}`);
    const up = await new Promise<boolean>((resolve) => {
      const socket = createConnection(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (up) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no server on ${port}: ${log.join('')}`);
}

function run(command: string, args: string[], env: Record<string, string>): ChildProcess {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  return child;
}

/** The first permissions violation the server reports for `act` on this connection, if any. */
async function violation(nc: NatsConnection, act: () => void): Promise<string | undefined> {
  act();
  const seen = (async () => {
    for await (const status of nc.status())
      if (status.type === 'error' && String(status.data) === 'PERMISSIONS_VIOLATION') return 'PERMISSIONS_VIOLATION';
    return undefined;
  })();
  await nc.flush().catch(() => undefined);
  return Promise.race([seen, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 700))]);
}

describe('the shipped deployment: infra/nats.conf, infra/redis.conf with ACLs, toolsearchd with authentication', () => {
  const dir = mkdtempSync(join(tmpdir(), 'toolsearch-deploy-'));
  const children: ChildProcess[] = [];
  const connections: NatsConnection[] = [];
  const keys = {
    acmeGateway: 'tsk_deploy-acme-gateway-key-000000000000',
    acmeOther: 'tsk_deploy-acme-second-gateway-key-000000',
    acmeApprover: 'tsk_deploy-acme-approver-key-00000000000',
    globexGateway: 'tsk_deploy-globex-gateway-key-0000000000',
  };
  let natsUrl = '';
  let redisPort = 0;
  let nats: Record<string, string> = {};
  let redisSecrets: Record<string, string> = {};

  const as = async (user: string): Promise<NatsConnection> => {
    const password = nats[`${user.toUpperCase().replace(/-/g, '_')}_NATS_PASSWORD`];
    const nc = await connect({ servers: natsUrl, user, pass: password, inboxPrefix: `_INBOX_${user}` });
    connections.push(nc);
    return nc;
  };
  const client = async (user: string, tenant: string, credential: string) =>
    new ToolsearchClient(await as(user), tenant, { credential, timeoutMs: 5000 });

  beforeAll(async () => {
    // Secrets as an operator makes them: never in the repository, files of mode 0600.
    execFileSync(process.execPath, [
      CLI,
      'credentials',
      'nats',
      '--tenants',
      'acme,globex',
      '--conf',
      join(dir, 'generated.conf'),
      '--secrets-file',
      join(dir, 'nats.env'),
    ]);
    execFileSync(process.execPath, [
      CLI,
      'credentials',
      'redis',
      '--tenants',
      'acme,globex',
      '--prefix',
      PREFIX,
      '--acl-file',
      join(dir, 'users.acl'),
      '--secrets-file',
      join(dir, 'redis.env'),
    ]);
    nats = envFile(join(dir, 'nats.env'));
    redisSecrets = envFile(join(dir, 'redis.env'));

    const natsPort = await freePort();
    const natsLog: string[] = [];
    // The shipped file as it is, but for its data folder (nats-server refuses -sd next to store_dir).
    const conf = join(dir, 'nats.conf');
    writeFileSync(
      conf,
      readFileSync(join(ROOT, 'infra/nats.conf'), 'utf8').replace(
        'store_dir: "/data/nats"',
        `store_dir: "${join(dir, 'js')}"`,
      ),
    );
    const natsServer = run('nats-server', ['-c', conf, '-a', '127.0.0.1', '-p', String(natsPort)], nats);
    natsServer.stderr?.on('data', (chunk: Buffer) => natsLog.push(chunk.toString()));
    children.push(natsServer);
    await started(natsServer, natsPort, natsLog);
    natsUrl = `nats://127.0.0.1:${natsPort}`;

    redisPort = await freePort();
    const redisLog: string[] = [];
    const redis = run(
      'redis-server',
      [
        join(ROOT, 'infra/redis.conf'),
        '--port',
        String(redisPort),
        '--bind',
        '127.0.0.1',
        '--dir',
        dir,
        '--aclfile',
        join(dir, 'users.acl'),
        '--appendonly',
        'no',
      ],
      {},
    );
    redis.stdout?.on('data', (chunk: Buffer) => redisLog.push(chunk.toString()));
    children.push(redis);
    await started(redis, redisPort, redisLog);

    const digest = (key: string) => createHash('sha256').update(key).digest('hex');
    const config = join(dir, 'toolsearchd.yaml');
    writeFileSync(
      config,
      JSON.stringify({
        nats: { url: natsUrl },
        redis: { url: `redis://127.0.0.1:${redisPort}` },
        namespace: { redisPrefix: PREFIX },
        http: { port: 0 },
        log: { level: 'info' },
        credentials: [
          { name: 'acme-gw', sha256: digest(keys.acmeGateway), tenants: ['acme'], roles: ['gateway'] },
          { name: 'acme-gw2', sha256: digest(keys.acmeOther), tenants: ['acme'], roles: ['gateway'] },
          { name: 'alice', sha256: digest(keys.acmeApprover), tenants: ['acme'], roles: ['approver'] },
          { name: 'globex-gw', sha256: digest(keys.globexGateway), tenants: ['globex'], roles: ['gateway'] },
        ],
        tenants: { acme: { catalogs: [join(ROOT, 'examples/catalogs/workspace.jsonl')] } },
      }),
    );
    // Credentials from the environment, as the k8s Secret and compose pass them.
    const daemon = await daemonProcess(config, {
      env: {
        TOOLSEARCH_NATS_USER: 'toolsearchd',
        TOOLSEARCH_NATS_PASSWORD: nats['TOOLSEARCH_NATS_PASSWORD'] ?? '',
        TOOLSEARCH_REDIS_USERNAME: redisSecrets['TOOLSEARCH_REDIS_USERNAME'] ?? '',
        TOOLSEARCH_REDIS_PASSWORD: redisSecrets['TOOLSEARCH_REDIS_PASSWORD'] ?? '',
      },
    });
    children.push(daemon);
  }, 60_000);

  afterAll(async () => {
    for (const nc of connections) await nc.close().catch(() => undefined);
    for (const child of children.reverse()) {
      child.kill('SIGTERM');
      await Promise.race([exited(child), new Promise((resolve) => setTimeout(resolve, 3000))]);
      child.kill('SIGKILL');
    }
  });

  let session = '';
  let approvalId = '';
  let runs: { tool: string }[] = [];

  it('a gateway opens and searches; its executor answers exec.<toolset> and the call succeeds', async () => {
    const worker = await as('acme-worker');
    runs = await serveExec(worker, 'acme', 'ops', (request) => ({ ran: request.tool }));
    const gateway = await client('acme-gateway', 'acme', keys.acmeGateway);
    await gateway.putToolset({
      id: 'ops',
      kind: 'plugin',
      label: 'ops',
      tools: [
        { name: 'status', description: 'Show the status of a service.', inputSchema: obj },
        { name: 'drop_table', description: 'Drop a database table.', inputSchema: obj, risk: 'high' },
      ],
    });
    ({
      session: { id: session },
    } = await gateway.openSession({ grant: { toolsets: ['ops', 'mcp-github'] }, model }));
    const found = await gateway.search(session, ['service status']);
    expect(JSON.stringify(found.result)).toContain('status');
    const { results } = await gateway.dispatch(session, [{ id: 'c1', name: 'status', arguments: {} }]);
    expect(results[0]).toMatchObject({ ok: true, data: { ran: 'status' } });
    const held = await gateway.dispatch(session, [{ id: 'c2', name: 'drop_table', arguments: { table: 'users' } }]);
    expect(held.results[0]?.status).toBe('pending_approval');
    approvalId = held.results[0]?.approval_id ?? '';
  });

  it("no tenant user reaches another tenant's subjects, inboxes or events, nor KV, JetStream or service data", async () => {
    const acme = await as('acme-gateway');
    for (const subjectName of [
      'toolsearch.v1.globex.>',
      'toolsearch.v1.globex.sessions.*.evt.>',
      '_INBOX_globex-gateway.>',
      '_INBOX.>',
      '$KV.>',
      '$JS.>',
      '$SRV.>',
      '>',
    ])
      expect(await violation(acme, () => acme.subscribe(subjectName)), subjectName).toBe('PERMISSIONS_VIOLATION');
    for (const subjectName of [
      'toolsearch.v1.globex.sessions.open',
      '$JS.API.STREAM.LIST',
      '$KV.toolsearch-toolsets.x',
      '$SRV.PING',
    ])
      expect(await violation(acme, () => acme.publish(subjectName)), subjectName).toBe('PERMISSIONS_VIOLATION');
    // A globex key on acme's subjects is refused by the daemon too.
    const globex = await client('globex-gateway', 'globex', keys.globexGateway);
    expect((await globex.openSession({ grant: { toolsets: [] }, model })).ok).toBe(true);
  });

  it("no tenant can aim the daemon's answer elsewhere: a reply subject outside its own inboxes is not answered", async () => {
    // The registry stream as the daemon's own user sees it (tenants cannot).
    const admin = await connect({
      servers: natsUrl,
      user: 'toolsearchd',
      pass: nats['TOOLSEARCH_NATS_PASSWORD'] ?? '',
    });
    connections.push(admin);
    const stream = async () => (await (await admin.jetstreamManager()).streams.info('KV_toolsearch-toolsets')).state;
    const before = await stream();
    expect(before.messages).toBeGreaterThan(0);
    const globexEvents: string[] = [];
    const globexNc = await as('globex-gateway');
    globexNc.subscribe('toolsearch.v1.globex.sessions.*.evt.>', {
      callback: (_, message) => globexEvents.push(message.subject),
    });
    await globexNc.flush();
    const auth = headers();
    auth.set('Authorization', `Bearer ${keys.acmeGateway}`);
    const acme = await as('acme-gateway');
    // The daemon may publish anywhere; a request naming these as its reply subject must change nothing.
    for (const reply of [
      '$JS.API.STREAM.PURGE.KV_toolsearch-toolsets',
      '$KV.toolsearch-toolsets.globex.b3Bz',
      'toolsearch.v1.globex.sessions.s-target.evt.result',
      '_INBOX_globex-gateway.stolen',
      '_INBOX.anything',
    ])
      acme.publish('toolsearch.v1.acme.toolsets.list', new TextEncoder().encode('{}'), { reply, headers: auth });
    await acme.flush();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const after = await stream();
    expect({ messages: after.messages, last: after.last_seq }).toEqual({
      messages: before.messages,
      last: before.last_seq,
    });
    expect(globexEvents).toEqual([]);
    // Replicas relay MCP calls outside every tenant's subjects.
    for (const user of ['acme-gateway', 'acme-worker', 'acme-operator']) {
      const nc = await as(user);
      expect(await violation(nc, () => nc.subscribe('toolsearch.internal.>')), user).toBe('PERMISSIONS_VIOLATION');
    }
  });

  it('no tenant client can subscribe to a subject the daemon serves (no joining its queue group)', async () => {
    for (const user of ['acme-gateway', 'acme-worker', 'acme-approver', 'acme-operator']) {
      const nc = await as(user);
      for (const subjectName of [
        'toolsearch.v1.acme.sessions.open',
        'toolsearch.v1.acme.sessions.*.search',
        'toolsearch.v1.acme.approvals.list',
        'toolsearch.v1.acme.toolsets.put',
        'toolsearch.v1.acme.>',
      ])
        expect(
          await violation(nc, () => nc.subscribe(subjectName, { queue: 'toolsearchd' })),
          `${user} ${subjectName}`,
        ).toBe('PERMISSIONS_VIOLATION');
    }
  });

  it('only a verified approver decides: NATS stops the gateway, the daemon stops a wrong key', async () => {
    const gatewayNc = await as('acme-gateway');
    expect(
      await violation(gatewayNc, () => gatewayNc.publish(`toolsearch.v1.acme.approvals.${approvalId}.decide`)),
    ).toBe('PERMISSIONS_VIOLATION');
    const approverWithGatewayKey = await client('acme-approver', 'acme', keys.acmeGateway);
    const { approval } = await (await client('acme-approver', 'acme', keys.acmeApprover)).getApproval(approvalId);
    const decision = { decision: 'approve' as const, by: 'alice', tool: approval.tool, digest: approval.digest };
    await expect(approverWithGatewayKey.decide(approvalId, decision)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect(runs.filter((request) => request.tool === 'drop_table')).toHaveLength(0);
    const approver = await client('acme-approver', 'acme', keys.acmeApprover);
    const decided = await approver.decide(approvalId, { ...decision, by: 'mallory', wait_ms: 5000 });
    expect(decided.approval).toMatchObject({ state: 'done', decision: { by: 'alice' }, result: { ok: true } });
    expect(runs.filter((request) => request.tool === 'drop_table')).toHaveLength(1);
  });

  it("a forged parent, another gateway's session and an operator toolset are refused", async () => {
    const other = await client('acme-gateway', 'acme', keys.acmeOther);
    await expect(
      other.openSession({ role: 'subagent', parent: session, grant: { toolsets: ['ops'] }, model }),
    ).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    await expect(other.search(session, ['status'])).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(
      other.putToolset({
        id: 'mcp-github',
        kind: 'mcp',
        label: 'github',
        tools: [{ name: 'steal', description: 'x' }],
      }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  it("a worker's Redis user reaches its tenant's queue only: no other tenant's keys, no approval decision", async () => {
    const gateway = await client('acme-gateway', 'acme', keys.acmeGateway);
    const spawned = await gateway.spawn({ parent: session, role: 'subagent', grant: { toolsets: ['ops'] }, task: {} });
    expect(spawned.job.prefix).toBe(`${PREFIX}{acme}:w`);
    const worker = new Redis({
      port: redisPort,
      host: '127.0.0.1',
      username: 'worker-acme',
      password: redisSecrets['TOOLSEARCH_WORKER_REDIS_PASSWORD_ACME'],
      lazyConnect: true,
      maxRetriesPerRequest: 0,
    });
    try {
      await worker.connect();
      expect(await worker.exists(`${spawned.job.prefix}:${spawned.job.queue}:${spawned.job.id}`)).toBe(1);
      await expect(worker.get(`${PREFIX}{acme}:session:${session}`)).rejects.toThrow(/NOPERM/);
      await expect(worker.keys(`${PREFIX}{globex}:w:*`)).rejects.toThrow(/NOPERM/);
      await expect(
        worker.set(`${PREFIX}{acme}:approval:${approvalId}:decision`, '{"decision":"approve"}'),
      ).rejects.toThrow(/NOPERM/);
      // The job's token acts on the child session only (over NATS as the tenant's worker user).
      const child = await client('acme-worker', 'acme', spawned.token);
      expect((await child.search(spawned.session.id, ['status'])).ok).toBe(true);
      await expect(child.search(session, ['status'])).rejects.toMatchObject({ code: 'FORBIDDEN' });
    } finally {
      worker.disconnect();
    }
    await eventually(async () => expect(children.every((child) => child.exitCode === null)).toBe(true));
  });
});
