import { execFile, spawn, type ChildProcess, type ExecFileOptions, type SpawnOptions } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { connect, type NatsConnection } from 'nats';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolsearchClient } from '@toolsearch/client';
import { exited, freePort } from './harness';

// docker-compose.yml without Docker: its `secrets` service's command (infra/compose/make-secrets.mjs)
// writes into a temporary folder, then nats-server, redis-server and toolsearchd start with the
// commands the compose file gives them, container paths replaced by the host paths their volumes
// mount. Only the ports differ (free ones), and the URLs the daemon is given for them.
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CLI = join(ROOT, 'services/toolsearch-cli/bin/toolsearch.mjs');
const SECRETS_MOUNT = './.toolsearch/secrets';

interface Service {
  command?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  user?: string;
}
const compose = parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8')) as { services: Record<string, Service> };
const service = (name: string): Service => {
  const found = compose.services[name];
  if (found === undefined) throw new Error(`docker-compose.yml has no service ${name}`);
  return found;
};

/** `${NAME:-default}` as compose reads it when NAME is not set. */
const interpolate = (text: string) => text.replace(/\$\{[A-Za-z_][A-Za-z0-9_]*:-([^}]*)\}/g, '$1');

/**
 * A service's command on this machine: every container path its volumes mount becomes the host
 * path (the secrets folder becomes `secrets`, a named volume `named[name]`), in one pass. With
 * `copies`, a file mounted from the checkout is read from a world-readable copy there instead: a
 * server running as another user cannot enter a checkout made in a private (0700) folder.
 */
function hostCommand(name: string, secrets: string, named: Record<string, string> = {}, copies?: string): string[] {
  const mounts = new Map<string, string>();
  for (const volume of service(name).volumes ?? []) {
    const [source = '', target = ''] = volume.split(':');
    const host = source.startsWith(SECRETS_MOUNT)
      ? join(secrets, source.slice(SECRETS_MOUNT.length))
      : source.startsWith('.')
        ? copies === undefined
          ? join(ROOT, source)
          : copyReadable(join(ROOT, source), copies)
        : named[source];
    if (host !== undefined) mounts.set(target, host);
  }
  const targets = [...mounts.keys()].sort((a, b) => b.length - a.length);
  const pattern = new RegExp(targets.map((target) => target.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'g');
  return (service(name).command ?? []).map((arg) =>
    targets.length === 0 ? arg : arg.replace(pattern, (target) => mounts.get(target) ?? target),
  );
}

/** Copies a file into `folder`, readable by every user; returns the copy's path. */
function copyReadable(file: string, folder: string): string {
  mkdirSync(folder, { recursive: true, mode: 0o755 });
  chmodSync(folder, 0o755);
  const copy = join(folder, basename(file));
  copyFileSync(file, copy);
  chmodSync(copy, 0o644);
  return copy;
}

/** Whether a user other than the owner can reach files under `path` (every folder above it searchable). */
function reachableByOthers(path: string): boolean {
  for (let folder = path; ; folder = dirname(folder)) {
    if ((statSync(folder).mode & 0o001) === 0) return false;
    if (dirname(folder) === folder) return true;
  }
}

/** This process's environment without any TOOLSEARCH_* variable (a container starts without them). */
function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env))
    if (!key.startsWith('TOOLSEARCH_') && value !== undefined) env[key] = value;
  return { ...env, ...extra };
}

const envFile = (path: string): Record<string, string> =>
  Object.fromEntries(
    readFileSync(path, 'utf8')
      .split('\n')
      .filter((line) => line.includes('='))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );

function run(argv: string[], options: ExecFileOptions): Promise<{ code: number; stdout: string; stderr: string }> {
  const [command = '', ...args] = argv;
  return new Promise((resolve) => {
    execFile(command, args, { ...options, encoding: 'utf8', timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr }),
    );
  });
}

/** Waits until a port accepts connections, or fails with the server's output. */
async function listening(child: ChildProcess, host: string, port: number, log: string[]): Promise<void> {
  const { createConnection } = await import('node:net');
  for (let i = 0; i < 100; i += 1) {
    if (child.exitCode !== null) throw new Error(`server exited: ${log.join('')}`);
    const up = await new Promise<boolean>((resolve) => {
      const socket = createConnection(port, host, () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (up) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`nothing listens on ${host}:${port}: ${log.join('')}`);
}

/** A non-loopback IPv4 address of this machine, if it has one. */
function externalAddress(): string | undefined {
  return Object.values(networkInterfaces())
    .flat()
    .find((address) => address !== undefined && address.family === 'IPv4' && !address.internal)?.address;
}

const asRoot = process.getuid?.() === 0;
/**
 * The uid:gid a compose service runs as (`user:`), applied when this test runs as root and that
 * user can read the checkout the service runs from (a clone in a private 0700 folder it cannot:
 * then it runs as this test's user, and only the servers' own files are checked as the others').
 */
function userOf(name: string): { uid: number; gid: number } | undefined {
  const user = service(name).user;
  if (!asRoot || user === undefined || !reachableByOthers(ROOT)) return undefined;
  const [uid = '0', gid = uid] = interpolate(user).split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

describe('docker-compose.yml run without Docker: generated secrets, authenticated NATS and Redis, toolsearchd', () => {
  const base = mkdtempSync(join(tmpdir(), 'toolsearch-compose-'));
  // Containers running as other users enter it (the secrets folder's own modes still apply).
  chmodSync(base, 0o711);
  const secrets = join(base, 'secrets');
  const children: ChildProcess[] = [];
  const connections: NatsConnection[] = [];
  const daemonLog: string[] = [];
  let tenant = '';
  let natsUrl = '';
  let redisHost = '127.0.0.1';
  let redisPort = 0;
  let firstRun = '';

  const start = (argv: string[], env: Record<string, string>, log: string[], extra: SpawnOptions = {}) => {
    const [command = '', ...args] = argv;
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'], ...extra });
    child.stdout?.on('data', (chunk: Buffer) => log.push(chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => log.push(chunk.toString()));
    children.push(child);
    return child;
  };

  beforeAll(async () => {
    // 1. The secrets service: its command and environment, the secrets folder a temporary one.
    const secretsService = service('secrets');
    const environment = Object.fromEntries(
      Object.entries(secretsService.environment ?? {}).map(([key, value]) => [key, interpolate(String(value))]),
    );
    tenant = (environment['TOOLSEARCH_TENANTS'] ?? '').split(',')[0] ?? '';
    const generated = await run(hostCommand('secrets', secrets), {
      cwd: ROOT,
      env: cleanEnv({ ...environment, TOOLSEARCH_NATS_STORE_DIR: join(base, 'nats-data') }),
    });
    expect(generated, generated.stderr).toMatchObject({ code: 0 });
    firstRun = readFileSync(join(secrets, 'toolsearchd/toolsearchd.yaml'), 'utf8');

    // 2. nats: its shell command, listening on a free port of the loopback interface.
    const natsPort = await freePort();
    const natsLog: string[] = [];
    const [shell = 'sh', flag = '-c', script = ''] = hostCommand('nats', secrets);
    const nats = start([shell, flag, `${script} -a 127.0.0.1 -p ${natsPort}`], cleanEnv(), natsLog);
    await listening(nats, '127.0.0.1', natsPort, natsLog);
    natsUrl = `nats://127.0.0.1:${natsPort}`;

    // 3. redis: its command, bound as compose binds it (every interface: Redis's protected mode
    // treats clients from elsewhere differently), reached through a non-loopback address when
    // there is one. As root, it runs as an unprivileged user that owns none of the secrets, as the
    // redis image's `redis` user does.
    redisPort = await freePort();
    redisHost = externalAddress() ?? '127.0.0.1';
    const redisData = join(base, 'redis-data');
    mkdirSync(redisData);
    if (asRoot) chownSync(redisData, 65534, 65534);
    const redisLog: string[] = [];
    const redis = start(
      [
        ...hostCommand('redis', secrets, {}, join(base, 'redis-config')),
        '--port',
        String(redisPort),
        '--dir',
        redisData,
      ],
      cleanEnv(),
      redisLog,
      asRoot ? { uid: 65534, gid: 65534 } : {},
    );
    await listening(redis, redisHost, redisPort, redisLog);

    // 4. toolsearchd: its shell command and environment, as its compose user, the URLs pointing here.
    const daemonEnv = Object.fromEntries(
      Object.entries(service('toolsearchd').environment ?? {}).map(([key, value]) => [key, interpolate(String(value))]),
    );
    const daemon = start(
      hostCommand('toolsearchd', secrets),
      cleanEnv({
        ...daemonEnv,
        TOOLSEARCH_NATS_URL: natsUrl,
        TOOLSEARCH_REDIS_URL: `redis://${redisHost}:${redisPort}`,
        TOOLSEARCH_HTTP_PORT: '0',
      }),
      daemonLog,
      { cwd: ROOT, ...(userOf('toolsearchd') ?? {}) },
    );
    await new Promise<void>((resolve, reject) => {
      const timer = setInterval(() => {
        if (daemonLog.join('').includes('toolsearchd serving')) {
          clearInterval(timer);
          resolve();
        } else if (daemon.exitCode !== null) {
          clearInterval(timer);
          reject(new Error(`toolsearchd exited with ${daemon.exitCode}: ${daemonLog.join('')}`));
        }
      }, 100);
    });
  }, 120_000);

  afterAll(async () => {
    for (const nc of connections) await nc.close().catch(() => undefined);
    for (const child of children.reverse()) {
      child.kill('SIGTERM');
      await Promise.race([exited(child), new Promise((resolve) => setTimeout(resolve, 3000))]);
      child.kill('SIGKILL');
    }
    // The folder holds working passwords and keys: leave nothing behind.
    rmSync(base, { recursive: true, force: true });
  });

  const clientFile = (role: string) => envFile(join(secrets, `${tenant}-${role}.env`));

  it('writes the servers their own folders, passwords readable by their owner only, and keys only as digests in the config', () => {
    expect(tenant).toBe('demo');
    const mode = (path: string) => statSync(join(secrets, path)).mode & 0o777;
    for (const folder of ['.', 'nats', 'redis', 'toolsearchd']) expect(mode(folder), folder).toBe(0o711);
    for (const file of ['nats/nats.env', 'redis.env', 'toolsearchd/toolsearchd.env', 'demo-gateway.env'])
      expect(mode(file), file).toBe(0o600);
    for (const file of ['nats/nats.conf', 'redis/users.acl', 'toolsearchd/toolsearchd.yaml'])
      expect(mode(file), file).toBe(0o644);

    const gateway = clientFile('gateway');
    expect(gateway).toMatchObject({
      TOOLSEARCH_NATS_URL: 'nats://localhost:4222',
      TOOLSEARCH_NATS_USER: 'demo-gateway',
      TOOLSEARCH_NATS_INBOX_PREFIX: '_INBOX_demo-gateway',
      TOOLSEARCH_TENANT: 'demo',
    });
    expect(gateway['TOOLSEARCH_CREDENTIAL']).toMatch(/^tsk_/);
    const config = readFileSync(join(secrets, 'toolsearchd/toolsearchd.yaml'), 'utf8');
    expect(config).not.toContain(gateway['TOOLSEARCH_CREDENTIAL']);
    expect(config).not.toContain(gateway['TOOLSEARCH_NATS_PASSWORD']);
    const settings = parse(config) as Record<string, Record<string, unknown> | undefined>;
    expect(settings['nats']?.['password']).toBeUndefined();
    expect(settings['redis']?.['password']).toBeUndefined();
    expect(settings['security']).toBeUndefined();
    // The JetStream folder is the generator's option, not nats-server's -sd (which it refuses next to store_dir).
    expect(readFileSync(join(secrets, 'nats/nats.conf'), 'utf8')).toContain(`store_dir: "${join(base, 'nats-data')}"`);
    // The daemon's env file holds its own credentials and nothing else.
    expect(Object.keys(envFile(join(secrets, 'toolsearchd/toolsearchd.env'))).sort()).toEqual([
      'TOOLSEARCH_NATS_PASSWORD',
      'TOOLSEARCH_NATS_USER',
      'TOOLSEARCH_REDIS_PASSWORD',
      'TOOLSEARCH_REDIS_USERNAME',
    ]);
  });

  it('the daemon started with authentication and no warning about it', () => {
    const log = daemonLog.join('');
    expect(log).toContain('toolsearchd serving');
    expect(log).not.toMatch(/unauthenticated|insecure/i);
  });

  it("a client with the gateway file's user, inbox prefix and key opens a session and searches", async () => {
    const gateway = clientFile('gateway');
    const nc = await connect({
      servers: natsUrl,
      user: gateway['TOOLSEARCH_NATS_USER'],
      pass: gateway['TOOLSEARCH_NATS_PASSWORD'],
      inboxPrefix: gateway['TOOLSEARCH_NATS_INBOX_PREFIX'],
    });
    connections.push(nc);
    const client = new ToolsearchClient(nc, tenant, { credential: gateway['TOOLSEARCH_CREDENTIAL'], timeoutMs: 5000 });
    await client.putToolset({
      id: 'ops',
      kind: 'plugin',
      label: 'ops',
      tools: [{ name: 'status', description: 'Show the status of a service.', inputSchema: { type: 'object' } }],
    });
    const { session } = await client.openSession({ grant: { toolsets: ['ops'] }, model: { contextLength: 128_000 } });
    const found = await client.search(session.id, ['service status']);
    expect(JSON.stringify(found.result)).toContain('status');

    // The operator's file, sourced as the compose comment says, is all the CLI needs.
    const listed = await run(
      [
        'sh',
        '-c',
        `set -a; . "${join(secrets, `${tenant}-operator.env`)}"; set +a; exec "${process.execPath}" "${CLI}" sessions list --json --nats ${natsUrl}`,
      ],
      { cwd: ROOT, env: cleanEnv() },
    );
    expect(listed, listed.stderr).toMatchObject({ code: 0 });
    expect(listed.stdout).toContain(session.id);
  });

  it('without the generated credentials nothing gets in: anonymous NATS and Redis, a wrong key', async () => {
    await expect(connect({ servers: natsUrl, reconnect: false })).rejects.toThrow(/authorization/i);
    const gateway = clientFile('gateway');
    await expect(
      connect({ servers: natsUrl, user: gateway['TOOLSEARCH_NATS_USER'], pass: 'wrong', reconnect: false }),
    ).rejects.toThrow(/authorization/i);
    const nc = await connect({
      servers: natsUrl,
      user: gateway['TOOLSEARCH_NATS_USER'],
      pass: gateway['TOOLSEARCH_NATS_PASSWORD'],
      inboxPrefix: gateway['TOOLSEARCH_NATS_INBOX_PREFIX'],
    });
    connections.push(nc);
    const stranger = new ToolsearchClient(nc, tenant, {
      credential: 'tsk_not-a-key-this-daemon-knows',
      timeoutMs: 5000,
    });
    await expect(
      stranger.openSession({ grant: { toolsets: [] }, model: { contextLength: 128_000 } }),
    ).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });

    const anonymous = new Redis({
      host: redisHost,
      port: redisPort,
      lazyConnect: true,
      enableReadyCheck: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    try {
      await anonymous.connect();
      await expect(anonymous.get('toolsearch:anything')).rejects.toThrow(/NOAUTH/);
    } finally {
      anonymous.disconnect();
    }
  });

  it('running the secrets service again keeps every secret; a partial folder is refused, not overwritten', async () => {
    const again = await run(hostCommand('secrets', secrets), { cwd: ROOT, env: cleanEnv() });
    expect(again, again.stderr).toMatchObject({ code: 0 });
    expect(again.stdout).toMatch(/keeping them/);
    expect(readFileSync(join(secrets, 'toolsearchd/toolsearchd.yaml'), 'utf8')).toBe(firstRun);

    const partial = join(base, 'partial');
    mkdirSync(join(partial, 'nats'), { recursive: true });
    writeFileSync(join(partial, 'nats/nats.conf'), 'port: 4222\n');
    const refused = await run(hostCommand('secrets', partial), { cwd: ROOT, env: cleanEnv() });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/Empty the folder/);
    expect(readFileSync(join(partial, 'nats/nats.conf'), 'utf8')).toBe('port: 4222\n');
  });
});
