import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createServer } from 'node:net';
import { createHash, randomUUID } from 'node:crypto';
import { connect, JSONCodec, type NatsConnection } from 'nats';
import type { ExecRequest } from '@toolsearch/proto';
import { pino } from 'pino';
import { natsConnectOptions, ToolsearchClient } from '@toolsearch/client';
import { parseDaemonConfig, type DaemonConfig } from '../src/config';
import { redisConnectionUrl } from '../src/connection-config';
import { Daemon } from '../src/daemon';
import type { DispatchHooks } from '../src/dispatch/turn-types';

export const NATS_URL = process.env['TOOLSEARCH_NATS_URL'] ?? 'nats://127.0.0.1:4222';
export const REDIS_URL = process.env['TOOLSEARCH_REDIS_URL'] ?? 'redis://127.0.0.1:6379';

/**
 * Credential keys every test daemon knows, for any tenant: `test` is a gateway, operator and
 * approver (what most tests need), `alice` and `bob` are approvers only, `gateway` and `other`
 * are plain gateways (two credentials of one tenant), `operator` only reads.
 */
export const TEST_KEYS = {
  test: 'tsk_test-key-for-the-test-suite-0000000000',
  alice: 'tsk_test-key-of-approver-alice-00000000000',
  bob: 'tsk_test-key-of-approver-bob-0000000000000',
  gateway: 'tsk_test-key-of-a-plain-gateway-0000000000',
  other: 'tsk_test-key-of-another-gateway-000000000',
  operator: 'tsk_test-key-of-a-read-only-operator-00000',
} as const;
export type TestKey = keyof typeof TEST_KEYS;
const TEST_ROLES: Record<TestKey, string[]> = {
  test: ['gateway', 'operator', 'approver'],
  alice: ['approver'],
  bob: ['approver'],
  gateway: ['gateway'],
  other: ['gateway'],
  operator: ['operator'],
};

/** The `credentials` config entry of the test keys (also for configs a test writes itself). */
export function testCredentials(): { name: string; sha256: string; tenants: string[]; roles: string[] }[] {
  return (Object.keys(TEST_KEYS) as TestKey[]).map((name) => ({
    name,
    sha256: createHash('sha256').update(TEST_KEYS[name]).digest('hex'),
    tenants: ['*'],
    roles: TEST_ROLES[name],
  }));
}

/** A namespace of its own for one test (bucket, Redis prefix, queue group, tenants), so files run in parallel. */
export function testConfig(overrides: Record<string, unknown> = {}): DaemonConfig {
  const id = randomUUID().replace(/-/g, '').slice(0, 12);
  return parseDaemonConfig({
    nats: { url: NATS_URL },
    redis: { url: REDIS_URL },
    namespace: { bucket: `t-${id}`, redisPrefix: `t-${id}:`, queue: `q-${id}` },
    log: { level: 'silent' },
    // The shared test NATS and Redis run without authentication.
    security: { insecure: true },
    // Any free port: several daemons (files, processes) run on one machine.
    http: { port: 0 },
    credentials: testCredentials(),
    ...overrides,
  });
}

/** A unique tenant id for one test. */
export function tenantId(name = 't'): string {
  return `${name}-${randomUUID().slice(0, 8)}`;
}

/** Starts a daemon on the test's namespace; `close()` stops it (idempotent). */
export async function startDaemon(config: DaemonConfig, hooks: readonly DispatchHooks[] = []): Promise<Daemon> {
  const daemon = new Daemon(config, { logger: pino({ level: process.env['TOOLSEARCH_TEST_LOG'] ?? 'silent' }), hooks });
  await daemon.start();
  return daemon;
}

/** A NATS connection and a client for a tenant presenting a test key. Close the connection when done. */
export async function clientFor(
  tenant: string,
  as: TestKey = 'test',
): Promise<{ nc: NatsConnection; client: ToolsearchClient }> {
  const nc = await connect({ servers: NATS_URL });
  return { nc, client: new ToolsearchClient(nc, tenant, { credential: TEST_KEYS[as] }) };
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
  const nc = await connect(natsConnectOptions(config.nats));
  try {
    const kv = await nc.jetstream().views.kv(config.namespace.bucket);
    await kv.destroy();
  } catch {
    // Nothing to remove.
  } finally {
    await nc.close();
  }
  const { Redis } = await import('ioredis');
  const redis = new Redis(redisConnectionUrl(config.redis), { lazyConnect: true });
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
    /** A client for a tenant presenting a test key (`test` unless named), closed by `stop()`. */
    async client(tenant: string, as: TestKey = 'test'): Promise<ToolsearchClient> {
      const { nc, client } = await clientFor(tenant, as);
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

/**
 * The test run's environment without the TOOLSEARCH_* settings the test setup exports (the URLs of
 * its own NATS and Redis): a daemon process takes its servers from the config file it is given.
 */
function inheritedEnv(): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('TOOLSEARCH_')));
}

/** The compiled daemon, as deployments run it (the test setup builds it when it is stale). */
const MAIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));

/**
 * Starts toolsearchd as its own process on the test's namespace; resolves once it serves.
 * `env` is added to this process's environment; `output` collects everything it prints.
 */
export function daemonProcess(
  configPath: string,
  options: { env?: Record<string, string>; output?: string[] } = {},
): Promise<ChildProcess> {
  const { output } = options;
  const child = spawn(process.execPath, [MAIN, '--config', configPath], {
    stdio: ['ignore', 'pipe', output ? 'pipe' : 'inherit'],
    env: { ...inheritedEnv(), ...options.env },
  });
  child.stderr?.on('data', (chunk: Buffer) => output?.push(chunk.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('toolsearchd did not start in time')), 20_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      output?.push(chunk.toString());
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
 * `{ ok: true, data: answer(request) }` (awaited when it is a promise) and records it. Resolves once
 * the server knows the subscription; the returned array fills as requests arrive.
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
      void Promise.resolve(answer(request)).then((data) => message.respond(codec.encode({ ok: true, data })));
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

/** A two-tool documentation toolset: what a bystander tenant searches in the hostile-input tests. */
export const DOCS_TOOLSET = {
  id: 'docs',
  kind: 'plugin',
  label: 'docs',
  tools: [
    {
      name: 'search_pages',
      description: 'Search the documentation pages.',
      inputSchema: { type: 'object', properties: {} },
    },
    { name: 'read_page', description: 'Read one documentation page.', inputSchema: { type: 'object', properties: {} } },
  ],
};

/** What `run` resolves to, and how long it took in milliseconds. */
export async function timed<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await run();
  return { value, ms: performance.now() - start };
}
