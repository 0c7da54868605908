import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { redisConnectionUrl } from '../src/connection-config';
import { QuotaGate, QuotasSchema } from '../src/quotas';
import { RedisKeys } from '../src/redis-keys';
import { cleanup, eventually, tenantId, testConfig } from './harness';

// A replica adds its local count of a tenant's second to the shared Redis window every 100 ms.
// While that increment is on its way, the requests it carries must still count here: once, a
// request admitted in that gap made 21 of 30 requests pass a limit of 20 (mcp-request-quota test).
describe('requests per second while the local count is on its way to Redis', () => {
  const config = testConfig();
  let redis: Redis;

  beforeAll(async () => {
    redis = new Redis(redisConnectionUrl(config.redis));
    await redis.ping();
  });
  /** A gate of 20 requests a second whose windows are shared through the test's Redis. */
  const gate = (requestsPerSecond = 20) =>
    new QuotaGate({
      defaults: QuotasSchema.parse({ requestsPerSecond }),
      perTenant: new Map(),
      source: {
        sessions: async () => 0,
        sessionBytes: async () => 0,
        toolsets: () => ({ toolsets: 0, tools: 0, bytes: 0, mcpServers: 0 }),
        heldApprovals: async () => 0,
      },
      redis,
      prefix: config.namespace.redisPrefix,
    });
  afterAll(async () => {
    vi.useRealTimers();
    redis.disconnect();
    await cleanup(config);
  });

  it('refuses the request past the limit between sending the count and hearing the total', async () => {
    const tenant = tenantId('sync');
    const quotas = gate();
    // One window for the whole test, whatever the wall clock does meanwhile.
    const now = Date.now();
    // Only the sync timer is faked: firing it runs the sync up to its Redis round trip, whose
    // answer cannot arrive before this test yields.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    for (let at = 0; at < 15; at += 1) quotas.admitRequest(tenant, now);
    vi.advanceTimersByTime(100);
    for (let at = 0; at < 5; at += 1) quotas.admitRequest(tenant, now);
    expect(() => quotas.admitRequest(tenant, now)).toThrow(/too many requests in this second/);
    expect(quotas.refuseEarly(tenant, now)).toMatchObject({ code: 'QUOTA_EXCEEDED', quota: 'requestsPerSecond' });
    vi.useRealTimers();

    // Once Redis has answered, the window holds the 15 sent and the 5 counted since; still full.
    const key = new RedisKeys(config.namespace.redisPrefix).tenant(tenant, 'rps', String(Math.floor(now / 1000)));
    await eventually(async () => expect(Number(await redis.get(key))).toBe(15));
    expect(() => quotas.admitRequest(tenant, now)).toThrow(/too many requests in this second/);
    // The next second starts empty.
    expect(() => quotas.admitRequest(tenant, now + 1_000)).not.toThrow();
    quotas.stop();
  });

  it('keeps what a failed sync held when a later sync of the same second succeeds', async () => {
    const tenant = tenantId('sync-fail');
    const quotas = gate();
    const now = Date.now();
    const key = new RedisKeys(config.namespace.redisPrefix).tenant(tenant, 'rps', String(Math.floor(now / 1000)));
    // A key of the wrong type makes the first sync's INCRBY fail, as a Redis error would.
    await redis.rpush(key, 'not a counter');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    for (let at = 0; at < 15; at += 1) quotas.admitRequest(tenant, now);
    vi.advanceTimersByTime(100);
    vi.useRealTimers();
    // Let the failed transaction come back (the count stays local), then clear the way.
    await new Promise((done) => setTimeout(done, 50));
    await redis.del(key);
    // Five more, synced this time: Redis says 5, but this replica has counted 20.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    for (let at = 0; at < 5; at += 1) quotas.admitRequest(tenant, now);
    vi.advanceTimersByTime(100);
    vi.useRealTimers();
    await eventually(async () => expect(Number(await redis.get(key))).toBe(5));
    await new Promise((done) => setTimeout(done, 50));
    expect(() => quotas.admitRequest(tenant, now)).toThrow(/too many requests in this second/);
    quotas.stop();
  });

  it('counts charged work past its second in the seconds after it, once between replicas', async () => {
    const tenant = tenantId('debt');
    const keys = new RedisKeys(config.namespace.redisPrefix);
    const windowKey = (second: number) => keys.tenant(tenant, 'rps', String(second));
    const debtKey = keys.tenant(tenant, 'rps-debt');
    // Two replicas each charge a build worth 2.5 seconds of a limit of 100 in the same second
    // (a second ahead of the clock, so that no second ends during the test).
    const [a, b] = [gate(100), gate(100)];
    const start = (Math.floor(Date.now() / 1000) + 10) * 1000;
    const second = start / 1000;
    a.charge(tenant, 250, start);
    b.charge(tenant, 250, start);
    // The next second is full on both at once (each knows what it charged)...
    expect(() => a.admitRequest(tenant, start + 1_000, 1)).toThrow(/too many requests/);
    expect(() => b.admitRequest(tenant, start + 1_000, 1)).toThrow(/too many requests/);
    // ...and Redis works out the debt: 500 units in a second of 100 owe 400; the next second takes
    // 100 of it (one second's worth between both replicas), 300 are left.
    await eventually(async () => expect(Number(await redis.get(windowKey(second + 1)))).toBe(100));
    await eventually(async () => expect(Number(await redis.get(debtKey))).toBe(300));
    // A third replica that charged nothing (or a restarted one) is held to it too: its first
    // request of a second passes, its sync moves 99 of the debt into that second.
    const c = gate(100);
    expect(() => c.admitRequest(tenant, start + 2_000, 1)).not.toThrow();
    await eventually(async () => expect(Number(await redis.get(windowKey(second + 2)))).toBe(100));
    expect(Number(await redis.get(debtKey))).toBe(201);
    await new Promise((done) => setTimeout(done, 150));
    expect(() => c.admitRequest(tenant, start + 2_000, 1)).toThrow(/too many requests/);
    for (const replica of [a, b, c]) replica.stop();
  });

  it('counts a charge made while a second pays debt as requests first, the debt with what is left', async () => {
    const tenant = tenantId('prefill');
    const keys = new RedisKeys(config.namespace.redisPrefix);
    const debtKey = keys.tenant(tenant, 'rps-debt');
    const d = gate(100);
    const start = (Math.floor(Date.now() / 1000) + 10) * 1000;
    d.charge(tenant, 200, start);
    await eventually(async () => expect(Number(await redis.get(debtKey))).toBe(100));
    // The next second starts full with the debt; a charge of 50 in it uses 50 of its room, so the
    // second pays 50 of the debt and 50 are still owed (not 100: the charge is not owed twice).
    expect(() => d.admitRequest(tenant, start + 1_000, 1)).toThrow(/too many requests/);
    d.charge(tenant, 50, start + 1_000);
    await eventually(async () => expect(Number(await redis.get(debtKey))).toBe(50));
    expect(Number(await redis.get(keys.tenant(tenant, 'rps', String(start / 1000 + 1))))).toBe(100);
    d.stop();
  });
});
