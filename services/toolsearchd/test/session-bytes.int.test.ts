import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisConnectionUrl } from '../src/connection-config';
import { RedisKeys } from '../src/redis-keys';
import { SessionStore, storedBytes, type SessionDescriptor } from '../src/session-store.adapter';
import { cleanup, tenantId, testConfig } from './harness';

// The bytes of a tenant's stored sessions (quotas.sessionBytes) are counted in the same script
// that stores, rewrites or removes a session: no interleaving or failure between commands can make
// the count disagree with the sessions, nor let sessions opened at once pass the limit together.
describe('stored session bytes', () => {
  const config = testConfig();
  const keys = new RedisKeys(config.namespace.redisPrefix);
  let redis: Redis;
  let store: SessionStore;
  let next = 0;
  const fresh = (tenant: string, extra: Partial<SessionDescriptor> = {}): Omit<SessionDescriptor, 'tokenDigest'> => ({
    id: `s-bytes-${(next += 1)}`,
    tenant,
    role: 'gateway',
    grant: { toolsets: [] },
    model: { contextLength: 0 },
    config: { padding: 'b'.repeat(10_000) },
    coreTools: [],
    activated: false,
    found: [],
    createdAt: 0,
    lineage: [],
    ancestorAllows: [],
    ...extra,
  });

  beforeAll(async () => {
    redis = new Redis(redisConnectionUrl(config.redis));
    await redis.ping();
    store = new SessionStore(redis, config.namespace.redisPrefix);
  });
  afterAll(async () => {
    redis.disconnect();
    await cleanup(config);
  });

  it('lets opens at once store no more than the limit together, and counts each at its stored size', async () => {
    const tenant = tenantId('bytes-race');
    const limit = 50_000;
    const results = await Promise.all(Array.from({ length: 10 }, () => store.create(fresh(tenant), limit)));
    const stored = results.filter((result) => result.ok);
    expect(stored).toHaveLength(4);
    const counted = stored.reduce((sum, result) => sum + (result.ok ? storedBytes(result.descriptor) : 0), 0);
    expect(await store.bytes(tenant)).toBe(counted);
    expect(counted).toBeLessThanOrEqual(limit);
    // A refused open left nothing behind: no session, no token owner.
    expect(await store.count(tenant)).toBe(4);
  });

  it('takes a closed family off the count exactly once, even when closed twice at once', async () => {
    const tenant = tenantId('bytes-family');
    const parent = await store.create(fresh(tenant));
    if (!parent.ok) throw new Error('not stored');
    const child = await store.create(fresh(tenant, { role: 'subagent', parent: parent.descriptor.id }));
    if (!child.ok) throw new Error('not stored');
    expect(await store.bytes(tenant)).toBe(storedBytes(parent.descriptor) + storedBytes(child.descriptor));
    await Promise.all([
      store.remove(tenant, parent.descriptor.id),
      store.remove(tenant, parent.descriptor.id),
      store.remove(tenant, child.descriptor.id),
    ]);
    expect(await store.bytes(tenant)).toBe(0);
    expect(await store.count(tenant)).toBe(0);
  });

  it('counts a session at its latest size, and never brings back one closed before its write', async () => {
    const tenant = tenantId('bytes-update');
    const created = await store.create(fresh(tenant));
    if (!created.ok) throw new Error('not stored');
    const found = Array.from({ length: 50 }, (_, at) => `server__tool_${at}`);
    const updated = await store.setFound(tenant, created.descriptor.id, found);
    expect(await store.bytes(tenant)).toBe(storedBytes(updated as SessionDescriptor));
    // A write that lands after the close (a tool call, then an immediate close) changes nothing.
    const loaded = (await store.load(tenant, created.descriptor.id)) as SessionDescriptor;
    await store.remove(tenant, created.descriptor.id);
    expect(await store.save({ ...loaded, activated: true })).toBe(false);
    expect(await store.load(tenant, created.descriptor.id)).toBeUndefined();
    expect(await store.count(tenant)).toBe(0);
    expect(await store.bytes(tenant)).toBe(0);
  });

  it('recounts from the open sessions when a count went stale, once a refusal asks', async () => {
    const tenant = tenantId('bytes-stale');
    const first = await store.create(fresh(tenant), 30_000);
    if (!first.ok) throw new Error('not stored');
    // A replica of an older version closed a session without taking it off the count.
    const stale = await store.create(fresh(tenant), 30_000);
    if (!stale.ok) throw new Error('not stored');
    await redis.del(keys.tenant(tenant, 'session', stale.descriptor.id));
    await redis.srem(keys.tenant(tenant, 'sessions'), stale.descriptor.id);
    // The stale count would refuse this one; the recount finds room for it.
    expect((await store.create(fresh(tenant), 30_000)).ok).toBe(true);
    expect(await store.count(tenant)).toBe(2);
    expect(await store.bytes(tenant)).toBeLessThanOrEqual(30_000);
  });
});
