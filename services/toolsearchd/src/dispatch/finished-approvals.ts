import { execOrThrow, type RedisClient } from '../redis-client';

/**
 * Bytes a tenant's finished approvals (the held call, its decision and its result, kept readable
 * after the call ended) may hold in Redis; past it the oldest are let go. Held calls count against
 * `quotas.heldApprovals` only while they wait, so without this a tenant holding, deciding and
 * finishing calls with large arguments filled the shared Redis for a week (about 1 GB per ten
 * minutes in the attack review's estimate).
 */
export const FINISHED_BYTES_PER_TENANT = 32 * 1024 * 1024;
/** Records let go (or forgotten once expired) per step. */
const BATCH = 64;

/** Where one tenant's finished records are counted, and the keys of one record. */
export interface FinishedKeys {
  /** Sorted set of `<id> <bytes>`, scored by the time the call finished. */
  readonly index: string;
  /** The bytes those records hold. */
  readonly total: string;
  /** Every key of one record (deleted when it is let go). */
  records(id: string): string[];
}

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
    await execOrThrow(
      this.#redis
        .multi()
        .zadd(keys.index, now, `${id} ${bytes}`)
        .incrby(keys.total, bytes)
        // A tenant quiet for the whole keeping time has no records left, nor a count.
        .pexpire(keys.index, this.#keepMs)
        .pexpire(keys.total, this.#keepMs),
    );
    // Records past their keeping time expired by themselves: only the count forgets them.
    const expired = await this.#redis.zrangebyscore(keys.index, '-inf', now - this.#keepMs, 'LIMIT', 0, BATCH);
    await this.#drop(keys, expired, false);
    for (;;) {
      const excess = Number((await this.#redis.get(keys.total)) ?? 0) - this.#budget;
      if (excess <= 0) return;
      const oldest = await this.#redis.zrange(keys.index, 0, BATCH - 1);
      if (oldest.length === 0) {
        // Nothing left to let go: the count drifted (a replica stopped mid-step); start it again.
        await this.#redis.del(keys.total);
        return;
      }
      // The fewest of the oldest that cover the excess.
      const chosen: string[] = [];
      let freed = 0;
      for (const member of oldest) {
        chosen.push(member);
        freed += sizeOf(member);
        if (freed >= excess) break;
      }
      await this.#drop(keys, chosen, true);
    }
  }

  /**
   * Takes records out of the count (and their keys out of Redis when `deleteRecords`), each only
   * by the replica whose `ZREM` removed it, so two replicas letting go at once count it once.
   */
  async #drop(keys: FinishedKeys, members: readonly string[], deleteRecords: boolean): Promise<void> {
    for (const member of members) {
      if ((await this.#redis.zrem(keys.index, member)) !== 1) continue;
      const id = member.split(' ')[0] ?? '';
      const multi = this.#redis.multi().decrby(keys.total, sizeOf(member));
      if (deleteRecords && id !== '') multi.del(...keys.records(id));
      await execOrThrow(multi);
    }
  }
}

/** The bytes a member `<id> <bytes>` counts. */
function sizeOf(member: string): number {
  return Number(member.split(' ')[1]) || 0;
}
