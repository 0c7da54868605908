import type { RedisClient } from '../redis-client';

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
  /** Every key of one record (deleted when it is let go). */
  records(id: string): string[];
}

/**
 * Counts a finished call once, whoever notes it and however often (a job BullMQ hands out again
 * runs its ending twice). KEYS: index, sizes, total; ARGV: time, id, bytes, keeping time.
 */
const NOTE = `
if redis.call('ZADD', KEYS[1], 'NX', ARGV[1], ARGV[2]) == 1 then
  redis.call('HSET', KEYS[2], ARGV[2], ARGV[3])
  redis.call('INCRBY', KEYS[3], ARGV[3])
end
for i = 1, 3 do redis.call('PEXPIRE', KEYS[i], ARGV[4]) end
return 1`;

/**
 * Takes one call out of the count (and its records out of Redis when ARGV[2] is 1) only if it is
 * still counted: two replicas letting go of the same call take it out once. KEYS: index, sizes,
 * total, then the record's keys; ARGV: id, delete.
 */
const DROP = `
if redis.call('ZREM', KEYS[1], ARGV[1]) == 0 then return 0 end
local size = tonumber(redis.call('HGET', KEYS[2], ARGV[1]) or '0') or 0
redis.call('HDEL', KEYS[2], ARGV[1])
if redis.call('DECRBY', KEYS[3], size) < 0 then redis.call('SET', KEYS[3], 0, 'KEEPTTL') end
if ARGV[2] == '1' then for i = 4, #KEYS do redis.call('DEL', KEYS[i]) end end
return 1`;

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
    await this.#redis.eval(NOTE, 3, keys.index, keys.sizes, keys.total, now, id, bytes, this.#keepMs);
    // Records past their keeping time expired by themselves: only the count forgets them.
    for (const expired of await this.#redis.zrangebyscore(keys.index, '-inf', now - this.#keepMs, 'LIMIT', 0, BATCH))
      await this.#drop(keys, expired, false);
    for (;;) {
      const excess = Number((await this.#redis.get(keys.total)) ?? 0) - this.#budget;
      if (excess <= 0) return;
      // The call just noted is never let go by its own noting: its result must stay readable to
      // whoever waits for it, even when it alone is over the budget.
      const oldest = (await this.#redis.zrange(keys.index, 0, BATCH)).filter((member) => member !== id).slice(0, BATCH);
      if (oldest.length === 0) return;
      const sizes = await this.#redis.hmget(keys.sizes, ...oldest);
      // The fewest of the oldest that cover the excess.
      let freed = 0;
      for (const [at, old] of oldest.entries()) {
        await this.#drop(keys, old, true);
        freed += Number(sizes[at] ?? 0) || 0;
        if (freed >= excess) break;
      }
    }
  }

  async #drop(keys: FinishedKeys, id: string, deleteRecords: boolean): Promise<void> {
    const records = deleteRecords ? keys.records(id) : [];
    await this.#redis.eval(
      DROP,
      3 + records.length,
      keys.index,
      keys.sizes,
      keys.total,
      ...records,
      id,
      deleteRecords ? '1' : '0',
    );
  }
}
