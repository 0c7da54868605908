import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDaemonConfig, parseDaemonConfig } from './config';
import { redisConnectionUrl, redisCredentials } from './connection-config';

const redis = (settings: Record<string, unknown>) => parseDaemonConfig({ redis: settings }).redis;

describe('redisConnectionUrl', () => {
  it('writes the keys into the URL every ioredis connection opens, encoded', () => {
    expect(redisConnectionUrl(redis({ url: 'redis://h:6380/2', username: 'u', password: 'p@ss/w' }))).toBe(
      'redis://u:p%40ss%2Fw@h:6380/2',
    );
    expect(redisConnectionUrl(redis({ url: 'rediss://h:6380', password: 'p' }))).toBe('rediss://:p@h:6380');
    expect(redisConnectionUrl(redis({ url: 'h:6379', password: 'p' }))).toBe('redis://:p@h:6379');
  });

  it('keeps a URL that carries its own credentials, or none', () => {
    expect(redisConnectionUrl(redis({ url: 'redis://u:p@h:6379' }))).toBe('redis://u:p@h:6379');
    expect(redisConnectionUrl(redis({ url: 'redis://h:6379' }))).toBe('redis://h:6379');
    expect(redisCredentials(redis({ url: 'redis://h:6379' }))).toEqual({});
    expect(redisCredentials(redis({ url: 'redis://:p%40@h' }))).toEqual({ password: 'p@' });
  });
});

describe('redis.mode', () => {
  it('takes cluster seed nodes and sentinels as a list or as one comma-separated value (the environment)', () => {
    expect(redis({ mode: 'cluster', nodes: ['r0:7000', '[::1]:7001'] })).toMatchObject({
      mode: 'cluster',
      nodes: ['r0:7000', '[::1]:7001'],
    });
    const config = loadDaemonConfig(undefined, {
      TOOLSEARCH_REDIS_MODE: 'sentinel',
      TOOLSEARCH_REDIS_SENTINELS: 's0:26379, s1:26379,s2:26379',
      TOOLSEARCH_REDIS_NAME: 'toolsearch',
      TOOLSEARCH_REDIS_SENTINEL_PASSWORD: 'sp',
    });
    expect(config.redis).toMatchObject({
      mode: 'sentinel',
      sentinels: ['s0:26379', 's1:26379', 's2:26379'],
      name: 'toolsearch',
      sentinelPassword: 'sp',
    });
  });

  it('refuses a mode without what it needs, settings of another mode, and bad addresses, naming the key', () => {
    expect(() => redis({ mode: 'cluster' })).toThrow(/^redis\.nodes: redis\.mode cluster needs redis\.nodes/);
    expect(() => redis({ mode: 'sentinel', sentinels: ['s:26379'] })).toThrow(/^redis\.name: /);
    expect(() => redis({ mode: 'sentinel', name: 'm' })).toThrow(/^redis\.sentinels: /);
    expect(() => redis({ nodes: ['r0:7000'] })).toThrow(/^redis\.nodes: redis\.nodes is for redis\.mode cluster/);
    expect(() => redis({ mode: 'cluster', nodes: ['no-port'] })).toThrow(/^redis\.nodes\.0: host:port/);
    expect(() => redis({ mode: 'cluster', nodes: [] })).toThrow(/^redis\.nodes: /);
    expect(() => redis({ mode: 'ring' })).toThrow(/^redis\.mode: /);
  });

  it('refuses braces in the key prefix on a cluster, where they would put every tenant in one slot', () => {
    expect(() =>
      parseDaemonConfig({ redis: { mode: 'cluster', nodes: ['r0:7000'] }, namespace: { redisPrefix: '{ts}:' } }),
    ).toThrow(/^namespace\.redisPrefix: on Redis Cluster the prefix may not hold/);
    expect(parseDaemonConfig({ namespace: { redisPrefix: '{ts}:' } }).namespace.redisPrefix).toBe('{ts}:');
  });
});

describe('nats.servers', () => {
  it('is the list form of nats.url, and the environment URL replaces it', () => {
    const nats = parseDaemonConfig({ nats: { servers: ['nats://n0:4222', 'nats://n1:4222'] } }).nats;
    expect(nats.url).toBe('nats://n0:4222,nats://n1:4222');
    expect(parseDaemonConfig({ nats: { servers: 'nats://n0:4222, nats://n1:4222' } }).nats.url).toBe(
      'nats://n0:4222,nats://n1:4222',
    );
    const path = join(mkdtempSync(join(tmpdir(), 'toolsearchd-')), 'config.yaml');
    writeFileSync(path, 'nats:\n  servers:\n    - nats://n0:4222\n');
    expect(loadDaemonConfig(path, { TOOLSEARCH_NATS_URL: 'nats://e:4222' }).nats.url).toBe('nats://e:4222');
  });

  it('refuses both forms at once and an empty list', () => {
    expect(() => parseDaemonConfig({ nats: { url: 'nats://a:4222', servers: ['nats://b:4222'] } })).toThrow(
      /^nats\.servers: /,
    );
    expect(() => parseDaemonConfig({ nats: { servers: [] } })).toThrow(/^nats\.servers: /);
  });
});
