/**
 * The prefix of every Redis key of one tenant: `<keyPrefix>{<tenant>}:`, where `keyPrefix` is the
 * daemon's Redis key prefix (`namespace.redisPrefix`, `toolsearch:` by default). The braces are a
 * Redis Cluster hash tag: all of a tenant's keys hash to one slot, so a transaction, an MGET or a
 * script over several of them stays on one node, while different tenants spread over the masters.
 */
export function tenantKeyPrefix(keyPrefix: string, tenant: string): string {
  return `${keyPrefix}{${tenant}}:`;
}

/**
 * The BullMQ key prefix of one tenant's worker queues: `<keyPrefix>{<tenant>}:w`. BullMQ writes a
 * queue's keys as `<prefix>:<queue>:…`, so every key of every worker queue of the tenant matches
 * `<keyPrefix>{<tenant>}:w:*` and no other key of the daemon does: that one pattern is what the
 * tenant's Redis ACL worker user is allowed, and the spawn reply's `job.prefix` is this value. The
 * hash tag keeps each queue's keys in one slot, as BullMQ needs on Redis Cluster. Tenant ids have
 * no `:`, braces or glob characters, so one tenant's pattern never covers another's.
 */
export function workerQueuePrefix(keyPrefix: string, tenant: string): string {
  return `${tenantKeyPrefix(keyPrefix, tenant)}w`;
}
