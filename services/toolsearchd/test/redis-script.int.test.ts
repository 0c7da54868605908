import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisConnectionUrl } from '../src/connection-config';
import type { RedisClient } from '../src/redis-client';
import { RedisScript } from '../src/redis-script';
import { testConfig } from './harness';

// The daemon's Lua scripts go to Redis by SHA1 and in full only when Redis lacks them.
describe('RedisScript on a real Redis', () => {
  const config = testConfig();
  let redis: Redis;
  const sent: string[] = [];
  /** The real client, noting which command each run sent. */
  const observed = () =>
    ({
      evalsha: (...args: Parameters<Redis['evalsha']>) => {
        sent.push('EVALSHA');
        return redis.evalsha(...args);
      },
      eval: (...args: Parameters<Redis['eval']>) => {
        sent.push('EVAL');
        return redis.eval(...args);
      },
    }) as unknown as RedisClient;

  beforeAll(async () => {
    redis = new Redis(redisConnectionUrl(config.redis));
    await redis.ping();
  });
  afterAll(() => redis.disconnect());

  it('sends the text once, then only the SHA1, with the same answers', async () => {
    // A script no run has loaded yet: its text is new.
    const script = new RedisScript(`-- ${randomUUID()}\nreturn {KEYS[1], ARGV[1] + 1}`);
    sent.length = 0;
    expect(await script.run(observed(), 1, 'script-test-key', 41)).toEqual(['script-test-key', 42]);
    expect(sent).toEqual(['EVALSHA', 'EVAL']);
    sent.length = 0;
    expect(await script.run(observed(), 1, 'other-key', 1)).toEqual(['other-key', 2]);
    expect(sent).toEqual(['EVALSHA']);
  });

  it("passes the script's own errors on, without sending it again", async () => {
    const script = new RedisScript(`-- ${randomUUID()}\nreturn redis.error_reply('BADARG the script refused')`);
    await script.run(observed(), 0).catch(() => undefined);
    sent.length = 0;
    await expect(script.run(observed(), 0)).rejects.toThrow(/BADARG/);
    expect(sent).toEqual(['EVALSHA']);
  });
});
