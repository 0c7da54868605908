/**
 * Work charged to a tenant beyond what its current second could count (`QuotaGate.charge`: a
 * search engine for a new catalog costs more than a second's worth at the default limit), owed on
 * this replica and paid in the tenant's later seconds. A new second first counts up to a second's
 * worth of it locally (so the tenant's requests here wait at once); the shared Redis window then
 * takes only what still fits beside every replica's requests (`PAY_SCRIPT`), and only that is paid
 * off, so replicas owing at once never pay more than one second's worth per second between them.
 */
export class QuotaDebts {
  readonly #owed = new Map<string, number>();

  /** Adds `amount` to what the tenant owes, keeping at most `cap`. */
  owe(tenant: string, amount: number, cap: number): void {
    if (amount <= 0) return;
    this.#owed.set(tenant, Math.min(cap, (this.#owed.get(tenant) ?? 0) + amount));
  }

  /** What the tenant owes here now. */
  owed(tenant: string): number {
    return this.#owed.get(tenant) ?? 0;
  }

  /** Takes `amount` the shared window counted off the tenant's debt. */
  paid(tenant: string, amount: number): void {
    const left = this.owed(tenant) - amount;
    if (left > 0) this.#owed.set(tenant, left);
    else this.#owed.delete(tenant);
  }
}

/**
 * Adds a replica's requests to a tenant's shared window, then as much of its debt as still fits
 * under the limit. KEYS: the window; ARGV: requests, debt offered, limit, expiry (ms). Returns the
 * window's total and what of the debt it took.
 */
export const PAY_SCRIPT = `
local total = redis.call('INCRBY', KEYS[1], ARGV[1])
local pay = math.min(tonumber(ARGV[2]), math.max(0, tonumber(ARGV[3]) - total))
if pay > 0 then total = redis.call('INCRBY', KEYS[1], pay) end
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return {total, pay}`;
