/**
 * The deployments bench:daemon measures: a NATS configuration and toolsearchd processes on it.
 * - `open`: the server at TOOLSEARCH_NATS_URL, without authentication (as before identity). Every
 *   toolsearchd on a server receives every request (each deployment is its own queue group), so it
 *   should be a server no other daemon uses (`nats-server -js -p N`, and TOOLSEARCH_NATS_URL).
 * - `auth`: a nats-server of the benchmark's own, on a free port, with the configuration that
 *   `toolsearch credentials nats --tenants …` writes (the shipped infra/nats.conf for the bench's
 *   tenants): the daemon connects as `toolsearchd`, each load client as `<tenant>-gateway` with
 *   `inboxPrefix: '_INBOX_<tenant>-gateway'`, each allowed only its role's subjects.
 * - `cluster`: three nats-server nodes in one JetStream cluster (nats-cluster.ts).
 * Either way the daemon knows one gateway credential key (BENCH_KEY), which the clients present.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect, type NatsConnection } from 'nats';
import { parseDaemonConfig } from '../src/config';
import { cleanup, exited, freePort } from '../test/harness';
import { natsServerPid } from './load';

export type NatsKind = 'open' | 'auth' | 'cluster';

export interface BenchNats {
  readonly kind: NatsKind;
  /** The nats-server process, for the CPU split of a run. */
  readonly pid: number | undefined;
  /** The daemon config's `nats` entry. */
  readonly daemon: { url: string; user?: string; password?: string; kvReplicas?: 1 | 3 | 5 };
  /** A load client's connection for `tenant`, and the inbox prefix its replies must use. */
  client(tenant: string): Promise<{ nc: NatsConnection; inboxPrefix: string }>;
  /** Stops the server if the benchmark started it, and removes its files. */
  stop(): Promise<void>;
}

export const NATS_URL = process.env['TOOLSEARCH_NATS_URL'] ?? 'nats://127.0.0.1:4222';
const REDIS_URL = process.env['TOOLSEARCH_REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));

/** The gateway key every load client presents; the daemon knows it by its sha256, for every tenant. */
export const BENCH_KEY = 'tsk_bench-gateway-key-of-bench-daemon-000';
const BENCH_CREDENTIALS = [
  { name: 'bench', sha256: createHash('sha256').update(BENCH_KEY).digest('hex'), tenants: ['*'], roles: ['gateway'] },
];

/** The daemon settings of one benchmark deployment: its own KV bucket, Redis prefix and queue group. */
function deploymentConfig(namespace: string, nats: BenchNats['daemon']) {
  return {
    nats,
    redis: { url: REDIS_URL },
    // The benchmark's local Redis (and, but for --nats auth, NATS) runs without authentication.
    security: { insecure: true },
    http: { port: 0 },
    namespace: { bucket: namespace, redisPrefix: `${namespace}:`, queue: namespace },
    credentials: BENCH_CREDENTIALS,
    // One bench tenant holds the whole union catalog (about 900 toolsets, most of them MCP servers)
    // and sends thousands of requests per second: far above the defaults for a shared daemon.
    quotas: { toolsets: 1_000_000, mcpServers: 100_000, requestsPerSecond: 10_000_000 },
  };
}

/** Removes what a benchmark deployment left in NATS and Redis. */
export async function removeDeployment(namespace: string, nats: BenchNats['daemon']): Promise<void> {
  await cleanup(parseDaemonConfig(deploymentConfig(namespace, nats)));
}

/** Stops a daemon process gracefully and waits until it has exited. */
export async function stopDaemonProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** Starts a daemon process and resolves once it serves (its "toolsearchd serving" log line). */
export async function startDaemonProcess(namespace: string, nats: BenchNats['daemon']): Promise<ChildProcess> {
  const config = join(mkdtempSync(join(tmpdir(), 'toolsearchd-bench-')), 'config.json');
  // Level info: nothing is logged per request, and the start is seen.
  writeFileSync(config, JSON.stringify({ ...deploymentConfig(namespace, nats), log: { level: 'info' } }));
  const flags = (process.env['TOOLSEARCHD_NODE_FLAGS'] ?? '').split(/\s+/).filter((flag) => flag !== '');
  // The config file is the whole of its connection settings: TOOLSEARCH_NATS_* and the like
  // would override it (and point an `auth` daemon at the open server).
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^TOOLSEARCH_(NATS|REDIS|INSECURE)/.test(name)),
  );
  const child = spawn(process.execPath, [...flags, '--import', 'tsx', MAIN, '--config', config], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env,
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('toolsearchd did not start within 60 s')), 60_000);
    child.once('exit', (code) => reject(new Error(`toolsearchd exited with ${code}`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      // Warnings and errors go on to this process's stderr.
      for (const line of chunk.toString().split('\n')) if (/"level":[4-6]0/.test(line)) console.error(line);
      if (chunk.toString().includes('toolsearchd serving')) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  return child;
}

const CLI = fileURLToPath(new URL('../../toolsearch-cli/bin/toolsearch.mjs', import.meta.url));

/** The local server, open: the daemon and every client connect without credentials. */
export function openNats(url: string): BenchNats {
  return {
    kind: 'open',
    pid: natsServerPid(Number(new URL(url).port || 4222)),
    daemon: { url },
    client: async () => ({ nc: await connect({ servers: url }), inboxPrefix: '_INBOX' }),
    stop: async () => undefined,
  };
}

async function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection(port, '127.0.0.1', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** A nats-server with the generated per-role users for `tenants`, started on a free port. */
export async function authNats(tenants: readonly string[]): Promise<BenchNats> {
  const dir = mkdtempSync(join(tmpdir(), 'toolsearchd-bench-nats-'));
  const port = await freePort();
  const conf = join(dir, 'nats.conf');
  const secrets = join(dir, 'nats.env');
  execFileSync(process.execPath, [
    CLI,
    'credentials',
    'nats',
    '--tenants',
    tenants.join(','),
    '--conf',
    conf,
    '--secrets-file',
    secrets,
    '--port',
    String(port),
    '--store-dir',
    join(dir, 'js'),
  ]);
  const env: Record<string, string> = {};
  for (const line of readFileSync(secrets, 'utf8').split('\n')) {
    const equals = line.indexOf('=');
    if (equals > 0 && !line.startsWith('#')) env[line.slice(0, equals)] = line.slice(equals + 1);
  }
  const password = (user: string) => env[`${user.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_NATS_PASSWORD`] ?? '';
  const server = spawn('nats-server', ['-c', conf, '-a', '127.0.0.1'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const log: string[] = [];
  server.stderr?.on('data', (chunk: Buffer) => {
    if (log.length < 200) log.push(chunk.toString());
  });
  const stop = async () => {
    if (server.exitCode === null && server.signalCode === null) server.kill('SIGTERM');
    await exited(server);
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', () => server.kill('SIGKILL'));
  for (let attempt = 0; !(await listening(port)); attempt += 1) {
    if (server.exitCode !== null || attempt > 100) {
      await stop();
      throw new Error(`nats-server did not start on ${port}: ${log.join('')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const url = `nats://127.0.0.1:${port}`;
  return {
    kind: 'auth',
    pid: server.pid,
    daemon: { url, user: 'toolsearchd', password: password('toolsearchd') },
    client: async (tenant) => {
      const user = `${tenant}-gateway`;
      const inboxPrefix = `_INBOX_${user}`;
      return { nc: await connect({ servers: url, user, pass: password(user), inboxPrefix }), inboxPrefix };
    },
    stop,
  };
}
