import type { RedisClient } from '../redis-client';
import { RedisScript } from '../redis-script';

/**
 * Bytes a tenant's finished approvals (the held call, its decision and its result, kept readable
 * after the call ended) may hold in Redis; past it the oldest are let go. Held calls count against
 * `quotas.heldApprovals` only while they wait, so without this a tenant holding, deciding and
 * finishing calls with large arguments filled the shared Redis for a week (about 1 GB per ten
 * minutes in the attack review's estimate).
 */
export const FINISHED_BYTES_PER_TENANT = 32 * 1024 * 1024;
/** Records looked at per step when letting go or forgetting. */
const BATCH = 64;

/** Where one tenant's finished records are counted, and the keys of one record. */
export interface FinishedKeys {
  /** Sorted set of finished call ids, scored by the time each finished. */
  readonly index: string;
  /** Hash: id → the bytes its records hold. */
  readonly sizes: string;
  /** The bytes all of them hold. */
  readonly total: string;
  /**
   * The keys of one call's records, deleted when it is let go: `prefix + id + suffix` for each
   * suffix (under the tenant's hash tag, so in the same Redis Cluster slot as the index).
   */
  readonly records: { readonly prefix: string; readonly suffixes: readonly string[] };
}

/**
 * Counts a finished call once, whoever notes it and however often (a job BullMQ hands out again
 * runs its ending twice). KEYS: index, sizes, total; ARGV: time, id, bytes, keeping time.
 */
const NOTE = new RedisScript(`
if redis.call('ZADD', KEYS[1], 'NX', ARGV[1], ARGV[2]) == 1 then
  redis.call('HSET', KEYS[2], ARGV[2], ARGV[3])
  redis.call('INCRBY', KEYS[3], ARGV[3])
end
for i = 1, 3 do redis.call('PEXPIRE', KEYS[i], ARGV[4]) end
return 1`);

/**
 * Takes one call out of the count only if it is still counted (its records expired by themselves):
 * two replicas forgetting the same call take it out once. KEYS: index, sizes, total; ARGV: id.
 */
const FORGET = new RedisScript(`
if redis.call('ZREM', KEYS[1], ARGV[1]) == 0 then return 0 end
local size = tonumber(redis.call('HGET', KEYS[2], ARGV[1]) or '0') or 0
redis.call('HDEL', KEYS[2], ARGV[1])
if redis.call('DECRBY', KEYS[3], size) < 0 then redis.call('SET', KEYS[3], 0, 'KEEPTTL') end
return 1`);

/**
 * Lets the oldest calls go (count and records) while the total is over the budget, all in one
 * step, so replicas trimming at once never free more than the excess; the call ARGV[2] (just
 * noted) is kept. At most ARGV[3] calls per step; returns 1 when more must go. KEYS: index,
 * sizes, total; ARGV: budget, kept id, most calls, record key prefix, record key suffixes….
 */
const TRIM = new RedisScript(`
local budget = tonumber(ARGV[1])
local most = tonumber(ARGV[3])
local total = tonumber(redis.call('GET', KEYS[3]) or '0') or 0
local dropped = 0
local at = 0
while total > budget and dropped < most do
  local oldest = redis.call('ZRANGE', KEYS[1], at, at)
  if #oldest == 0 then break end
  local id = oldest[1]
  if id == ARGV[2] then
    at = at + 1
  else
    redis.call('ZREM', KEYS[1], id)
    total = total - (tonumber(redis.call('HGET', KEYS[2], id) or '0') or 0)
    redis.call('HDEL', KEYS[2], id)
    for i = 5, #ARGV do redis.call('DEL', ARGV[4] .. id .. ARGV[i]) end
    dropped = dropped + 1
  end
end
if total < 0 then total = 0 end
if dropped > 0 then redis.call('SET', KEYS[3], total, 'KEEPTTL') end
if total > budget and dropped >= most then return 1 end
return 0`);

/** Counts each tenant's finished approvals and lets the oldest go past `budget` bytes. */
export class FinishedApprovals {
  readonly #redis: RedisClient;
  readonly #keepMs: number;
  readonly #budget: number;

  constructor(redis: RedisClient, keepMs: number, budget = FINISHED_BYTES_PER_TENANT) {
    this.#redis = redis;
    this.#keepMs = keepMs;
    this.#budget = budget;
  }

  /** A call finished with records of `bytes` bytes: count them, then keep the tenant in budget. */
  async note(keys: FinishedKeys, id: string, bytes: number, now = Date.now()): Promise<void> {
    await NOTE.run(this.#redis, 3, keys.index, keys.sizes, keys.total, now, id, bytes, this.#keepMs);
    // Records past their keeping time expired by themselves: only the count forgets them.
    for (const expired of await this.#redis.zrangebyscore(keys.index, '-inf', now - this.#keepMs, 'LIMIT', 0, BATCH))
      await FORGET.run(this.#redis, 3, keys.index, keys.sizes, keys.total, expired);
    // The call just noted is never let go by its own noting: its result must stay readable to
    // whoever waits for it, even when it alone is over the budget.
    const { prefix, suffixes } = keys.records;
    let more = 1;
    while (more === 1)
      more = Number(
        await TRIM.run(
          this.#redis,
          3,
          keys.index,
          keys.sizes,
          keys.total,
          this.#budget,
          id,
          BATCH,
          prefix,
          ...suffixes,
        ),
      );
  }
}
