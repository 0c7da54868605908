/**
 * The BullMQ key prefix of one tenant's worker queues: `<keyPrefix>w:<tenant>`, where `keyPrefix`
 * is the daemon's Redis key prefix (`namespace.redisPrefix`, `toolsearch:` by default). BullMQ
 * writes a queue's keys as `<prefix>:<queue>:…`, so every key of every worker queue of the tenant
 * matches `<keyPrefix>w:<tenant>:*` and no other key of the daemon does: that one pattern is what
 * the tenant's Redis ACL worker user is allowed, and the spawn reply's `job.prefix` is this value.
 * Tenant ids have no `:` and no glob characters, so one tenant's pattern never covers another's.
 */
export function workerQueuePrefix(keyPrefix: string, tenant: string): string {
  return `${keyPrefix}w:${tenant}`;
}
