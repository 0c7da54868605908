import { Cluster, Redis, SentinelConnector } from 'ioredis';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { parseDaemonConfig } from './config';
import { RedisConnector } from './redis-client';

const connector = (redis: Record<string, unknown>) =>
  new RedisConnector(parseDaemonConfig({ redis }).redis, pino({ level: 'silent' }));

describe('RedisConnector', () => {
  it('opens a Cluster client on the seed nodes, with the credentials on every node and requests that give up early', () => {
    const cluster = connector({ mode: 'cluster', nodes: ['r0:7000', '[::1]:7001'], username: 'u', password: 'p' });
    const commands = cluster.create('commands', 'test', { lazyConnect: true });
    const worker = cluster.create('worker', 'test', { lazyConnect: true });
    try {
      expect(commands).toBeInstanceOf(Cluster);
      const options = (commands as Cluster).options;
      expect(options.redisOptions).toMatchObject({ username: 'u', password: 'p', maxRetriesPerRequest: 1 });
      expect(options).toMatchObject({ enableOfflineQueue: false, maxRedirections: 4 });
      expect((worker as Cluster).options.redisOptions).toMatchObject({ maxRetriesPerRequest: null });
      expect((worker as Cluster).options.maxRedirections).toBe(16);
      expect(cluster.location).toBe('cluster r0:7000,[::1]:7001');
    } finally {
      commands.disconnect();
      worker.disconnect();
    }
  });

  it('finds the primary through the Sentinels, by name, with both passwords, following +switch-master', () => {
    const sentinel = connector({
      mode: 'sentinel',
      sentinels: 's0:26379,s1:26379',
      name: 'toolsearch',
      username: 'u',
      password: 'p',
      sentinelPassword: 'sp',
    });
    const client = sentinel.create('producer', 'test', { lazyConnect: true });
    try {
      expect(client).toBeInstanceOf(Redis);
      expect((client as Redis).options).toMatchObject({
        sentinels: [
          { host: 's0', port: 26379 },
          { host: 's1', port: 26379 },
        ],
        name: 'toolsearch',
        role: 'master',
        username: 'u',
        password: 'p',
        sentinelPassword: 'sp',
        failoverDetector: true,
        enableOfflineQueue: false,
      });
      // The connector that retires a lost connection's failover detector (redis-client.ts).
      expect((client as Redis).options.Connector?.prototype).toBeInstanceOf(SentinelConnector);
      expect(sentinel.locationSetting).toContain('TOOLSEARCH_REDIS_SENTINELS');
    } finally {
      client.disconnect();
    }
  });

  it('finds the private field the failover-safe connector retires in this ioredis (renamed: the fix would do nothing)', () => {
    const connector = new SentinelConnector({ sentinels: [{ host: 's0', port: 26379 }], name: 'toolsearch' } as never);
    expect(Object.hasOwn(connector, 'failoverDetector')).toBe(true);
  });

  it('opens one server from the URL with the configured credentials, and never names them', () => {
    const standalone = connector({ url: 'redis://h:6390', username: 'u', password: 'secret' });
    const client = standalone.create('commands', 'test', { lazyConnect: true });
    try {
      expect((client as Redis).options).toMatchObject({ host: 'h', port: 6390, username: 'u', password: 'secret' });
      expect(standalone.location).not.toContain('secret');
    } finally {
      client.disconnect();
    }
  });
});
