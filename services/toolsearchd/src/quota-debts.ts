import { RedisScript } from './redis-script';

/**
 * Work charged to a tenant beyond what its current second could count (`QuotaGate.charge`: a
 * search engine for a new catalog costs more than a second's worth at the default limit), owed by
 * the tenant across every replica and paid in its later seconds. The debt lives in Redis beside
 * the tenant's request windows (`PAY_SCRIPT`): each sync adds a replica's requests and charges to
 * the shared window, owes what of the charges went past the limit, and lets the window take as
 * much of the debt as still fits — so replicas never pay more than one second's worth per second
 * between them, a restart forgets nothing, and a replica that did not charge the work holds the
 * tenant to it too. Here each replica keeps an estimate of what it charged since its last sync and
 * the debt that sync heard of, so that a new second counts up to a second's worth of it at once
 * (`QuotaGate.#windowOf`); the next sync replaces the estimate with Redis's answer.
 */
export class QuotaDebts {
  /** Per tenant: owed by charges here since the last sync that reached Redis (an estimate). */
  readonly #estimated = new Map<string, number>();
  /** Per tenant: the shared debt as the last sync heard it. */
  readonly #heard = new Map<string, number>();

  /** Adds `amount` to the estimate of what the tenant owes, keeping the whole at most `cap`. */
  owe(tenant: string, amount: number, cap: number): void {
    if (amount <= 0) return;
    const room = Math.max(0, cap - (this.#heard.get(tenant) ?? 0));
    this.#estimated.set(tenant, Math.min(room, (this.#estimated.get(tenant) ?? 0) + amount));
  }

  /** What the tenant owes as far as this replica knows, at most `cap`. */
  owed(tenant: string, cap: number): number {
    return Math.min(cap, (this.#heard.get(tenant) ?? 0) + (this.#estimated.get(tenant) ?? 0));
  }

  /** A sync reached Redis: the shared debt is `owed` (it counted this replica's charges itself). */
  heard(tenant: string, owed: number): void {
    this.#estimated.delete(tenant);
    if (owed > 0) this.#heard.set(tenant, owed);
    else this.#heard.delete(tenant);
  }

  /**
   * `amount` of the debt was counted in a window whose sync did not reach Redis: paid here, from
   * the estimate first (Redis never heard of it), then from what Redis holds.
   */
  paidLocally(tenant: string, amount: number): void {
    const estimated = this.#estimated.get(tenant) ?? 0;
    const fromEstimate = Math.min(estimated, amount);
    if (estimated - fromEstimate > 0) this.#estimated.set(tenant, estimated - fromEstimate);
    else this.#estimated.delete(tenant);
    const heard = (this.#heard.get(tenant) ?? 0) - (amount - fromEstimate);
    if (heard > 0) this.#heard.set(tenant, heard);
    else this.#heard.delete(tenant);
  }
}

/**
 * Adds a replica's requests (its charges among them) to a tenant's shared window, owes what of
 * the charges went past the limit (the debt at most the cap), then — when the window is still
 * current — moves as much of the debt into it as fits under the limit. KEYS: the window, the
 * debt; ARGV: requests, of which charges, limit, window expiry (ms), debt cap, debt expiry (ms),
 * 1 when the window is current. Returns the window's total, what of the debt it took, and what
 * is still owed.
 */
export const PAY_SCRIPT = new RedisScript(`
local limit = tonumber(ARGV[3])
local total = redis.call('INCRBY', KEYS[1], ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
local owed = tonumber(redis.call('GET', KEYS[2]) or '0') or 0
local over = math.min(tonumber(ARGV[2]), math.max(0, total - limit))
if over > 0 then owed = math.min(owed + over, tonumber(ARGV[5])) end
local pay = 0
if ARGV[7] == '1' then pay = math.min(owed, math.max(0, limit - total)) end
if pay > 0 then total = redis.call('INCRBY', KEYS[1], pay) end
owed = owed - pay
if owed > 0 then redis.call('SET', KEYS[2], owed, 'PX', ARGV[6]) else redis.call('DEL', KEYS[2]) end
return {total, pay, owed}`);
