import { describe, expect, it } from 'vitest';
import { parseDaemonConfig } from './config';
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
