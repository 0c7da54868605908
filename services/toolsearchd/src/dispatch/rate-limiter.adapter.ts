import type { SessionTool } from '@toolsearch/catalog';
import { matchesToolPattern } from '@toolsearch/bridge';
import type { RateLimit } from '../policy-config';
import type { RedisClient } from '../redis-client';
import { RedisKeys } from '../redis-keys';
import { RedisScript } from '../redis-script';

// Checks every window first and counts the call only when all have room, so a refused call uses
// no budget. KEYS: the window counters; ARGV: limit and window length (ms) per key.
const CHECK_AND_COUNT = new RedisScript(`
for i = 1, #KEYS do
  local used = tonumber(redis.call('GET', KEYS[i]) or '0')
  if used >= tonumber(ARGV[2 * i - 1]) then return i end
end
for i = 1, #KEYS do
  if redis.call('INCR', KEYS[i]) == 1 then redis.call('PEXPIRE', KEYS[i], ARGV[2 * i]) end
end
return 0
`);

export type RateVerdict = { readonly allowed: true } | { readonly allowed: false; readonly message: string };

/**
 * Fixed-window rate limits per tenant, session or tool, counted in Redis so every replica shares
 * them. One round trip per call, whatever the number of limits; every key of a call is under its
 * tenant's hash tag, so the script's keys share one Redis Cluster slot.
 */
export class RateLimiter {
  readonly #redis: RedisClient;
  readonly #keys: RedisKeys;

  constructor(redis: RedisClient, prefix: string) {
    this.#redis = redis;
    this.#keys = new RedisKeys(prefix);
  }

  async check(
    limits: readonly RateLimit[],
    call: { tenant: string; session: string; tool: SessionTool },
    now = Date.now(),
  ): Promise<RateVerdict> {
    const applicable = limits
      .map((limit, index) => ({ limit, index }))
      .filter(({ limit }) => limit.tools === undefined || limit.tools.some((p) => matchesToolPattern(call.tool, p)));
    if (applicable.length === 0) return { allowed: true };
    const keys: string[] = [];
    const args: string[] = [];
    for (const { limit, index } of applicable) {
      const who = limit.scope === 'tenant' ? '' : limit.scope === 'session' ? call.session : call.tool.name;
      const window = Math.floor(now / limit.windowMs);
      keys.push(this.#keys.tenant(call.tenant, 'rl', String(index), limit.scope, who, String(window)));
      args.push(String(limit.limit), String(limit.windowMs));
    }
    const hit = Number(await CHECK_AND_COUNT.run(this.#redis, keys.length, ...keys, ...args));
    if (hit === 0) return { allowed: true };
    const limit = applicable[hit - 1]?.limit;
    return {
      allowed: false,
      message:
        limit === undefined
          ? 'rate limit reached'
          : `Rate limit reached: at most ${limit.limit} call(s) per ${limit.windowMs} ms per ${limit.scope}. Try again later.`,
    };
  }
}
