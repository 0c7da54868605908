import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { pino, type Logger } from 'pino';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { DaemonConfigInput } from '../src/config';
import { Daemon } from '../src/daemon';
import { startNats, startRedis, type TestServer } from './auth-servers';
import { cleanup, daemonProcess, eventually, exited, testConfig } from './harness';

// The daemon against a NATS and a Redis that both require authentication, configured without
// security.insecure: the deployment shape. Also the refusal to start without credentials.
const NATS_PASSWORD = 'nats-5ecret-never-logged-0006';
const REDIS_PASSWORD = 'redis-5ecret-never-logged-0007';
const DEFAULT_PASSWORD = 'redis-default-5ecret-0008';
const ADMIN_PASSWORD = 'redis-admin-5ecret-0009';

function capture(): { lines: string[]; logger: Logger } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { lines, logger: pino({ level: 'trace' }, sink) };
}

describe('Redis credentials and security.insecure', () => {
  let nats: TestServer;
  let redis: TestServer;
  let admin: Redis;
  let secure: (redisSettings: Record<string, unknown>) => ReturnType<typeof testConfig>;

  beforeAll(async () => {
    [nats, redis] = await Promise.all([
      startNats(`authorization { users: [ { user: toolsearchd, password: "${NATS_PASSWORD}" } ] }`),
      // The default user with a password is what `requirepass` sets; toolsearchd is an ACL user.
      startRedis([
        `user default on >${DEFAULT_PASSWORD} ~* &* +@all`,
        `user toolsearchd on >${REDIS_PASSWORD} ~* &* +@all`,
        `user admin on >${ADMIN_PASSWORD} ~* &* +@all`,
      ]),
    ]);
    admin = new Redis({ port: redis.port, host: '127.0.0.1', username: 'admin', password: ADMIN_PASSWORD });
    secure = (redisSettings) =>
      testConfig({
        nats: { url: `nats://127.0.0.1:${nats.port}`, user: 'toolsearchd', password: NATS_PASSWORD },
        redis: { url: `redis://127.0.0.1:${redis.port}`, ...redisSettings },
        security: { insecure: false },
      });
  });
  afterAll(async () => {
    admin?.disconnect();
    await Promise.all([nats?.stop(), redis?.stop()]);
  });

  async function started(config: ReturnType<typeof testConfig>, logger = pino({ level: 'silent' })) {
    const daemon = new Daemon(config, { logger });
    onTestFinished(async () => {
      // The dispatch adapters' Redis connections finish their handshake after start() returns; one
      // closed in the middle of it rejects a promise nobody holds.
      await new Promise((resolve) => setTimeout(resolve, 500));
      await daemon.close();
      await cleanup(config);
    });
    await daemon.start();
    return daemon;
  }

  it('starts without security.insecure, and every Redis connection is the ACL user of the keys', async () => {
    const { lines, logger } = capture();
    await started(secure({ username: 'toolsearchd', password: REDIS_PASSWORD }), logger);
    // The daemon's own connection, the approval queue and worker, the worker queues: all as toolsearchd.
    // (A connection still in its handshake shows as `default` for a moment: hence eventually.)
    await eventually(async () => {
      const list = (await admin.client('LIST')) as string;
      const users = list
        .trim()
        .split('\n')
        .map((line) => /\buser=(\S+)/.exec(line)?.[1])
        .filter((user) => user !== 'admin');
      expect(users.length, list).toBeGreaterThanOrEqual(3);
      expect(new Set(users), list).toEqual(new Set(['toolsearchd']));
    });
    const logs = lines.join('');
    expect(logs).toContain('toolsearchd serving');
    expect(logs).not.toContain('unauthenticated');
    expect(logs).not.toContain(REDIS_PASSWORD);
    expect(logs).not.toContain(NATS_PASSWORD);
  });

  it('takes a password (the default user, as with requirepass) from the URL', async () => {
    await started(secure({ url: `redis://:${DEFAULT_PASSWORD}@127.0.0.1:${redis.port}` }));
  });

  it('fails with a clear message when Redis refuses the password, naming no secret', async () => {
    const daemon = new Daemon(secure({ username: 'toolsearchd', password: 'not-the-password' }), {
      logger: pino({ level: 'silent' }),
    });
    const error = (await daemon.start().then(
      () => undefined,
      (reason: unknown) => reason,
    )) as Error & { code?: string };
    await daemon.close();
    expect(error.code).toBe('REDIS_AUTH');
    expect(error.message).toMatch(
      /^Redis at redis:\/\/toolsearchd:\*\*\*@127\.0\.0\.1:\d+ refused the daemon's credentials \(WRONGPASS/,
    );
    expect(error.message).toContain('redis.password (TOOLSEARCH_REDIS_PASSWORD)');
    expect(error.message).not.toContain('not-the-password');
  });

  it('refuses to start without credentials unless security.insecure is set, and says what to configure', async () => {
    const open = new Daemon(testConfig({ security: { insecure: false } }), { logger: pino({ level: 'silent' }) });
    await expect(open.start()).rejects.toThrow(
      /^security: NATS and Redis without authentication\. Configure NATS credentials \(nats\.user \+ nats\.password \(TOOLSEARCH_NATS_USER, TOOLSEARCH_NATS_PASSWORD\).*TOOLSEARCH_NATS_CREDS_FILE\)\) and a Redis password \(redis\.password \(TOOLSEARCH_REDIS_PASSWORD\).*set security\.insecure: true \(TOOLSEARCH_INSECURE=1\)/,
    );
    await open.close();
    const redisOnly = new Daemon(secure({}), { logger: pino({ level: 'silent' }) });
    await expect(redisOnly.start()).rejects.toThrow(
      /^security: Redis without authentication\. Configure a Redis password/,
    );
    await redisOnly.close();
  });

  it('with security.insecure, starts on open servers and warns once that any client can act as any tenant', async () => {
    const { lines, logger } = capture();
    await started(testConfig({ security: { insecure: true } }), logger);
    const warnings = lines.filter((line) => line.includes('unauthenticated'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(
      'NATS and Redis are unauthenticated; any client that reaches them can act as any tenant',
    );
  });

  it('as a process, takes every credential from TOOLSEARCH_* variables and refuses to start without them', async () => {
    const config = secure({});
    const { nats: natsConfig, redis: redisConfig, security: _security, ...rest } = config;
    const file: DaemonConfigInput = {
      ...rest,
      nats: { url: natsConfig.url },
      redis: { url: redisConfig.url },
      log: { level: 'info' },
    };
    const path = join(mkdtempSync(join(tmpdir(), 'toolsearchd-redisauth-')), 'config.json');
    writeFileSync(path, JSON.stringify(file));
    const output: string[] = [];
    const child = await daemonProcess(path, {
      output,
      env: {
        TOOLSEARCH_NATS_USER: 'toolsearchd',
        TOOLSEARCH_NATS_PASSWORD: NATS_PASSWORD,
        TOOLSEARCH_REDIS_USERNAME: 'toolsearchd',
        TOOLSEARCH_REDIS_PASSWORD: REDIS_PASSWORD,
      },
    }).catch((error: Error) => {
      throw new Error(`${error.message}: ${output.join('')}`);
    });
    onTestFinished(async () => {
      child.kill('SIGKILL');
      await exited(child);
      await cleanup({ ...config, redis: { ...config.redis, username: 'toolsearchd', password: REDIS_PASSWORD } });
    });
    expect(output.join('')).not.toContain('unauthenticated');

    const refused: string[] = [];
    await expect(daemonProcess(path, { output: refused })).rejects.toThrow('toolsearchd exited with 2');
    expect(refused.join('')).toMatch(/^toolsearchd: config error: security: NATS and Redis without authentication/m);
  }, 60_000);
});
