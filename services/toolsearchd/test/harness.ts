import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createServer } from 'node:net';
import { randomUUID } from 'node:crypto';
import { connect, JSONCodec, type NatsConnection } from 'nats';
import type { ExecRequest } from '@toolsearch/proto';
import { pino } from 'pino';
import { ToolsearchClient } from '@toolsearch/client';
import { parseDaemonConfig, type DaemonConfig } from '../src/config';
import { Daemon } from '../src/daemon';
import type { DispatchHooks } from '../src/dispatch/dispatcher';

export const NATS_URL = process.env['TOOLSEARCH_NATS_URL'] ?? 'nats://127.0.0.1:4222';
export const REDIS_URL = process.env['TOOLSEARCH_REDIS_URL'] ?? 'redis://127.0.0.1:6379';

/** A namespace of its own for one test (bucket, Redis prefix, queue group, tenants), so files run in parallel. */
export function testConfig(overrides: Record<string, unknown> = {}): DaemonConfig {
  const id = randomUUID().replace(/-/g, '').slice(0, 12);
  return parseDaemonConfig({
    nats: { url: NATS_URL },
    redis: { url: REDIS_URL },
    namespace: { bucket: `t-${id}`, redisPrefix: `t-${id}:`, queue: `q-${id}` },
    log: { level: 'silent' },
    // Any free port: several daemons (files, processes) run on one machine.
    http: { port: 0 },
    ...overrides,
  });
}

/** A unique tenant id for one test. */
export function tenantId(name = 't'): string {
  return `${name}-${randomUUID().slice(0, 8)}`;
}

/** Starts a daemon on the test's namespace; `close()` stops it (idempotent). */
export async function startDaemon(config: DaemonConfig, hooks: readonly DispatchHooks[] = []): Promise<Daemon> {
  const daemon = new Daemon(config, { logger: pino({ level: 'silent' }), hooks });
  await daemon.start();
  return daemon;
}

/** A NATS connection and a client for a tenant. Close the connection when done. */
export async function clientFor(tenant: string): Promise<{ nc: NatsConnection; client: ToolsearchClient }> {
  const nc = await connect({ servers: NATS_URL });
  return { nc, client: new ToolsearchClient(nc, tenant) };
}

/** Resolves with the first `count` values pushed through `push`, or rejects after `ms`. */
export function collect<T>(count: number, ms = 5000): { push: (value: T) => void; done: Promise<T[]> } {
  const values: T[] = [];
  let resolve: (values: T[]) => void = () => undefined;
  let reject: (error: Error) => void = () => undefined;
  const done = new Promise<T[]>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  const timer = setTimeout(() => reject(new Error(`expected ${count} event(s), got ${values.length}`)), ms);
  return {
    push: (value) => {
      values.push(value);
      if (values.length === count) {
        clearTimeout(timer);
        resolve(values);
      }
    },
    done,
  };
}

/** Removes what a test namespace left behind: its KV bucket and its Redis keys. */
export async function cleanup(config: DaemonConfig): Promise<void> {
  const nc = await connect({ servers: config.nats.url });
  try {
    const kv = await nc.jetstream().views.kv(config.namespace.bucket);
    await kv.destroy();
  } catch {
    // Nothing to remove.
  } finally {
    await nc.close();
  }
  const { Redis } = await import('ioredis');
  const redis = new Redis(config.redis.url, { lazyConnect: true });
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${config.namespace.redisPrefix}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/**
 * A daemon on its own namespace for a whole test file, plus clients for any tenant; `stop()`
 * closes the clients and the daemon and removes the namespace. Call `start()` in `beforeAll`.
 */
export function daemonFixture(overrides: Record<string, unknown> = {}) {
  const config = testConfig(overrides);
  const connections: NatsConnection[] = [];
  let daemon: Daemon | undefined;
  return {
    config,
    async start(hooks: readonly DispatchHooks[] = []): Promise<Daemon> {
      daemon = await startDaemon(config, hooks);
      return daemon;
    },
    /** A client for a tenant, closed by `stop()`. */
    async client(tenant: string): Promise<ToolsearchClient> {
      const { nc, client } = await clientFor(tenant);
      connections.push(nc);
      return client;
    },
    /** A raw NATS connection, closed by `stop()`. */
    async connection(): Promise<NatsConnection> {
      const nc = await connect({ servers: config.nats.url });
      connections.push(nc);
      return nc;
    },
    async stop(): Promise<void> {
      for (const nc of connections) await nc.close().catch(() => undefined);
      await daemon?.close();
      await cleanup(config);
    },
  };
}

/** A TCP port nothing listens on right now (for servers a test starts itself). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

/** Resolves when a child process has exited (at once if it already has). */
export function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', () => resolve()));
}

const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));

/** Starts toolsearchd as its own process on the test's namespace; resolves once it serves. */
export function daemonProcess(configPath: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, '--config', configPath], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('toolsearchd did not start in time')), 20_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('toolsearchd serving')) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.once('exit', (code) => reject(new Error(`toolsearchd exited with ${code}`)));
  });
}

/**
 * Serves `exec.<toolset>` for a tenant the way a plugin would: answers every request with
 * `{ ok: true, data: answer(request) }` and records it. Resolves once the server knows the
 * subscription; the returned array fills as requests arrive.
 */
export async function serveExec(
  nc: NatsConnection,
  tenant: string,
  toolset: string,
  answer: (request: ExecRequest) => unknown = (request) => ({ ran: request.tool }),
): Promise<ExecRequest[]> {
  const codec = JSONCodec<unknown>();
  const requests: ExecRequest[] = [];
  nc.subscribe(`toolsearch.v1.${tenant}.exec.${toolset}`, {
    callback: (error, message) => {
      if (error) return;
      const request = codec.decode(message.data) as ExecRequest;
      requests.push(request);
      message.respond(codec.encode({ ok: true, data: answer(request) }));
    },
  });
  await nc.flush();
  return requests;
}

/** Retries `attempt` (a check that throws until it holds) every 100 ms for up to `ms`. */
export async function eventually<T>(attempt: () => Promise<T> | T, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
