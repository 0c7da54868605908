// Makes sure Redis and NATS (with JetStream) answer at the configured addresses before the daemon
// or its integration tests need them: reuses running servers, otherwise starts local ones from the
// installed binaries (installing them with apt-get when missing and running as root), otherwise
// says exactly what to install. Used by `npm start` and by the daemon's test setup.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function answers(host, port, timeoutMs = 500) {
  return new Promise((resolve) => {
    const socket = createConnection({ host, port });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

export function hasBinary(name) {
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
}

export function installWithApt(packages) {
  if (process.getuid?.() !== 0 || !hasBinary('apt-get')) return false;
  console.error(`toolsearch: installing ${packages.join(' ')} with apt-get...`);
  spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
  return spawnSync('apt-get', ['install', '-y', '-qq', ...packages], { stdio: 'inherit' }).status === 0;
}

export async function waitFor(host, port, what) {
  for (let i = 0; i < 50; i += 1) {
    if (await answers(host, port)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what} did not start on ${host}:${port}`);
}

function hostPort(url, fallbackPort) {
  const parsed = new URL(url);
  return { host: parsed.hostname || '127.0.0.1', port: Number(parsed.port || fallbackPort) };
}

/**
 * Ensures both services answer. Returns what was started and a `stop()` that ends exactly those
 * (servers that were already running are left alone).
 */
export async function ensureServices(env = process.env) {
  const started = [];
  const children = [];
  const redis = hostPort(env.TOOLSEARCH_REDIS_URL ?? 'redis://127.0.0.1:6379', 6379);
  const nats = hostPort(env.TOOLSEARCH_NATS_URL ?? 'nats://127.0.0.1:4222', 4222);
  if (!(await answers(redis.host, redis.port))) {
    if (!hasBinary('redis-server') && !installWithApt(['redis-server'])) {
      throw new Error(
        `Redis does not answer at ${redis.host}:${redis.port} and redis-server is not installed. Install Redis (Debian: apt-get install redis-server) or set TOOLSEARCH_REDIS_URL.`,
      );
    }
    const child = spawn(
      'redis-server',
      ['--bind', redis.host, '--port', String(redis.port), '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    children.push(child);
    await waitFor(redis.host, redis.port, 'Redis');
    started.push(`redis-server on ${redis.host}:${redis.port}`);
  }
  if (!(await answers(nats.host, nats.port))) {
    if (!hasBinary('nats-server') && !installWithApt(['nats-server'])) {
      throw new Error(
        `NATS does not answer at ${nats.host}:${nats.port} and nats-server is not installed. Install it (Debian: apt-get install nats-server) or set TOOLSEARCH_NATS_URL.`,
      );
    }
    const dataDir = mkdtempSync(join(tmpdir(), 'toolsearch-nats-'));
    const child = spawn('nats-server', ['-a', nats.host, '-p', String(nats.port), '-js', '-sd', dataDir], {
      stdio: 'ignore',
    });
    children.push(child);
    await waitFor(nats.host, nats.port, 'NATS');
    started.push(`nats-server (JetStream) on ${nats.host}:${nats.port}`);
  }
  for (const child of children) child.unref();
  return {
    started,
    stop: () => {
      for (const child of children) child.kill('SIGTERM');
    },
  };
}

/**
 * Starts a NATS (JetStream) and a Redis of this process's own, open, on free loopback ports, and
 * returns their URLs and `stop()`. The test suite runs on these: no other deployment or test run on
 * the machine answers its requests, and it answers nobody else's.
 */
export async function startPrivateServices() {
  for (const [binary, pkg] of [
    ['nats-server', 'nats-server'],
    ['redis-server', 'redis-server'],
  ])
    if (!hasBinary(binary) && !installWithApt([pkg]))
      throw new Error(`${binary} is not installed. Install it (Debian: apt-get install ${pkg}).`);
  const [natsPort, redisPort] = await freePorts(2);
  const dir = mkdtempSync(join(tmpdir(), 'toolsearch-test-services-'));
  const children = [
    spawn('nats-server', ['-a', '127.0.0.1', '-p', String(natsPort), '-js', '-sd', dir], { stdio: 'ignore' }),
    spawn(
      'redis-server',
      ['--bind', '127.0.0.1', '--port', String(redisPort), '--save', '', '--appendonly', 'no', '--dir', dir],
      {
        stdio: 'ignore',
      },
    ),
  ];
  const stop = await untilListening(children, natsPort, redisPort);
  for (const child of children) child.unref();
  return { natsUrl: `nats://127.0.0.1:${natsPort}`, redisUrl: `redis://127.0.0.1:${redisPort}`, stop };
}

/**
 * Waits until the NATS and Redis just spawned as `children` listen on their ports; stops them all
 * when one does not. Returns the `stop()` that ends them.
 */
export async function untilListening(children, natsPort, redisPort) {
  const stop = () => {
    for (const child of children) child.kill('SIGTERM');
  };
  try {
    await waitFor('127.0.0.1', natsPort, 'NATS');
    await waitFor('127.0.0.1', redisPort, 'Redis');
  } catch (error) {
    stop();
    throw error;
  }
  return stop;
}

/** `count` distinct TCP ports nothing listens on right now (held together, so never one twice). */
export async function freePorts(count) {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise((resolve, reject) => {
          const server = createServer();
          server.once('error', reject);
          server.listen(0, '127.0.0.1', () => resolve(server));
        }),
    ),
  );
  const ports = servers.map((server) => server.address().port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  ensureServices().then(
    ({ started }) =>
      console.log(started.length > 0 ? `started (and left running): ${started.join(', ')}` : 'Redis and NATS answer'),
    (error) => {
      console.error(`toolsearch: ${error.message}`);
      process.exit(1);
    },
  );
}
