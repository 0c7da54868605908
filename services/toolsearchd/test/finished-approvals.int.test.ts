import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisConnectionUrl } from '../src/connection-config';
import { FinishedApprovals, type FinishedKeys } from '../src/dispatch/finished-approvals';
import { RedisKeys } from '../src/redis-keys';
import { cleanup, tenantId, testConfig } from './harness';

// A tenant's finished approvals (held call, decision, result: kept readable for a week) are held
// to a byte budget in the shared Redis: past it, its oldest records go, and no other tenant's.
describe('finished approvals within a byte budget', () => {
  const config = testConfig();
  const keys = new RedisKeys(config.namespace.redisPrefix);
  let redis: Redis;
  const finishedKeys = (tenant: string): FinishedKeys => ({
    index: keys.tenant(tenant, 'approvals-finished'),
    sizes: keys.tenant(tenant, 'approvals-finished-sizes'),
    total: keys.tenant(tenant, 'approvals-finished-bytes'),
    records: { prefix: keys.tenant(tenant, 'approval', ''), suffixes: ['', ':result'] },
  });
  /** Stores a finished record of `bytes` characters and counts it. */
  const finish = async (finished: FinishedApprovals, tenant: string, id: string, bytes: number, at: number) => {
    await redis.set(keys.tenant(tenant, 'approval', id), 'x'.repeat(bytes), 'PX', 60_000);
    await redis.set(keys.tenant(tenant, 'approval', `${id}:result`), '{}', 'PX', 60_000);
    await finished.note(finishedKeys(tenant), id, bytes, at);
  };
  const exists = (tenant: string, id: string) => redis.exists(keys.tenant(tenant, 'approval', id));
  /** The bytes the tenant's finished records are counted at. */
  const totalOf = async (tenant: string) => Number(await redis.get(finishedKeys(tenant).total));

  beforeAll(async () => {
    redis = new Redis(redisConnectionUrl(config.redis));
    await redis.ping();
  });
  afterAll(async () => {
    redis.disconnect();
    await cleanup(config);
  });

  it("lets a tenant's oldest records go past its budget, and leaves another tenant's alone", async () => {
    const heavy = tenantId('heavy');
    const quiet = tenantId('quiet');
    const finished = new FinishedApprovals(redis, 60_000, 10_000);
    const now = Date.now();
    await finish(finished, quiet, 'q1', 4_000, now);
    for (let at = 0; at < 10; at += 1) await finish(finished, heavy, `h${at}`, 3_000, now + at);
    // 10 × 3,000 bytes in a budget of 10,000: the three newest stay.
    expect(await totalOf(heavy)).toBeLessThanOrEqual(10_000);
    const kept = [];
    for (let at = 0; at < 10; at += 1) if ((await exists(heavy, `h${at}`)) === 1) kept.push(at);
    expect(kept).toEqual([7, 8, 9]);
    expect(await redis.exists(keys.tenant(heavy, 'approval', 'h0:result'))).toBe(0);
    expect(await exists(quiet, 'q1')).toBe(1);
    expect(await totalOf(quiet)).toBe(4_000);
  });

  it('counts a call once however often its ending is noted, and lets it go once when replicas race', async () => {
    const tenant = tenantId('twice');
    const finished = new FinishedApprovals(redis, 60_000, 10_000);
    const now = Date.now();
    await finish(finished, tenant, 'a', 4_000, now);
    // A job handed out again ends the call twice: still 4,000 bytes.
    await finished.note(finishedKeys(tenant), 'a', 4_000, now + 1);
    await Promise.all([
      finish(finished, tenant, 'b', 4_000, now + 2),
      finished.note(finishedKeys(tenant), 'a', 4_000, now + 3),
    ]);
    expect(await totalOf(tenant)).toBe(8_000);
    // Two replicas each finishing a call past the budget at once: the oldest goes, once.
    const other = new FinishedApprovals(redis, 60_000, 10_000);
    await redis.set(keys.tenant(tenant, 'approval', 'c'), 'x', 'PX', 60_000);
    await redis.set(keys.tenant(tenant, 'approval', 'd'), 'x', 'PX', 60_000);
    await Promise.all([
      finished.note(finishedKeys(tenant), 'c', 3_000, now + 4),
      other.note(finishedKeys(tenant), 'd', 3_000, now + 5),
    ]);
    const total = await totalOf(tenant);
    const counted = await redis.zrange(finishedKeys(tenant).index, 0, -1);
    const sizes = await redis.hvals(finishedKeys(tenant).sizes);
    expect(total).toBe(sizes.reduce((sum, size) => sum + Number(size), 0));
    // Exactly the oldest call goes: b, c and d (10,000 bytes) fit, and neither replica freed more.
    expect(total).toBe(10_000);
    expect(counted.sort()).toEqual(['b', 'c', 'd']);
    expect(await exists(tenant, 'a')).toBe(0);
    expect(await exists(tenant, 'b')).toBe(1);
  });

  it('frees exactly the excess when many replicas finish calls at once', async () => {
    const tenant = tenantId('many');
    const now = Date.now();
    const first = new FinishedApprovals(redis, 60_000, 10_000);
    for (let at = 0; at < 10; at += 1) await finish(first, tenant, `old${at}`, 1_000, now + at);
    // Five replicas, each with its own connection, finish a 1,000-byte call at the same moment:
    // 5,000 bytes over. (Whether their steps interleave is up to the connections: this checks the
    // outcome under concurrency, it cannot force the interleaving that made the old code free too much.)
    const connections = Array.from({ length: 5 }, () => new Redis(redisConnectionUrl(config.redis)));
    const replicas = connections.map((connection) => new FinishedApprovals(connection, 60_000, 10_000));
    await Promise.all(replicas.map((replica, at) => finish(replica, tenant, `new${at}`, 1_000, now + 100 + at)));
    for (const connection of connections) connection.disconnect();
    expect(await totalOf(tenant)).toBe(10_000);
    const kept = await redis.zrange(finishedKeys(tenant).index, 0, -1);
    expect(kept).toHaveLength(10);
    for (let at = 5; at < 10; at += 1) expect(await exists(tenant, `old${at}`)).toBe(1);
  });

  it('keeps a call that alone is over the budget readable until the next one finishes', async () => {
    const tenant = tenantId('huge');
    const finished = new FinishedApprovals(redis, 60_000, 10_000);
    const now = Date.now();
    await finish(finished, tenant, 'huge', 50_000, now);
    expect(await exists(tenant, 'huge')).toBe(1);
    await finish(finished, tenant, 'next', 1_000, now + 1);
    expect(await exists(tenant, 'huge')).toBe(0);
    expect(await totalOf(tenant)).toBe(1_000);
  });

  it('forgets records past their keeping time without counting them again', async () => {
    const tenant = tenantId('aging');
    const finished = new FinishedApprovals(redis, 1_000, 10_000);
    const start = Date.now();
    await finish(finished, tenant, 'old', 6_000, start);
    // Two seconds later the old record is past its time: only the new one counts.
    await finish(finished, tenant, 'new', 6_000, start + 2_000);
    expect(await totalOf(tenant)).toBe(6_000);
    expect(await redis.zcard(finishedKeys(tenant).index)).toBe(1);
    expect(await exists(tenant, 'new')).toBe(1);
  });
});
