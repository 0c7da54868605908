/**
 * Work charged to a tenant beyond what its current second could count (`QuotaGate.charge`: a
 * search engine for a new catalog costs more than a second's worth at the default limit), owed by
 * the tenant across every replica and paid in its later seconds. The debt lives in Redis beside
 * the tenant's request windows (`PAY_SCRIPT`): each replica adds what it charged, and each sync
 * lets the shared window take as much of the debt as still fits under the limit, so replicas
 * never pay more than one second's worth per second between them, a replica that restarts
 * forgets nothing, and a replica that did not charge the work holds the tenant to it too. Here
 * each replica keeps what it has charged but not yet sent, and the debt it last heard of, so a new
 * second counts up to a second's worth of it at once (`QuotaGate.#windowOf`).
 */
export class QuotaDebts {
  /** Per tenant: charged here, not yet added to the shared debt. */
  readonly #unsent = new Map<string, number>();
  /** Per tenant: the shared debt as the last sync heard it. */
  readonly #heard = new Map<string, number>();

  /** Adds `amount` to what the tenant owes (sent with the next sync). */
  owe(tenant: string, amount: number): void {
    if (amount > 0) this.#unsent.set(tenant, (this.#unsent.get(tenant) ?? 0) + amount);
  }

  /** What the tenant owes as far as this replica knows, at most `cap`. */
  owed(tenant: string, cap: number): number {
    return Math.min(cap, (this.#heard.get(tenant) ?? 0) + (this.#unsent.get(tenant) ?? 0));
  }

  /** Whether the tenant has debt charged here that no sync has sent yet. */
  hasUnsent(tenant: string): boolean {
    return this.#unsent.has(tenant);
  }

  /** Takes what the next sync sends for the tenant. */
  takeUnsent(tenant: string): number {
    const unsent = this.#unsent.get(tenant) ?? 0;
    this.#unsent.delete(tenant);
    return unsent;
  }

  /** The shared debt as a sync heard it. */
  heard(tenant: string, owed: number): void {
    if (owed > 0) this.#heard.set(tenant, owed);
    else this.#heard.delete(tenant);
  }

  /** `amount` of the debt counted in a window whose sync did not reach Redis: paid here. */
  paidLocally(tenant: string, amount: number): void {
    const heard = this.#heard.get(tenant) ?? 0;
    this.heard(tenant, heard - amount);
    const left = amount - heard;
    const unsent = this.#unsent.get(tenant) ?? 0;
    if (left > 0 && unsent > 0)
      if (unsent > left) this.#unsent.set(tenant, unsent - left);
      else this.#unsent.delete(tenant);
  }
}

/**
 * Adds a replica's requests to a tenant's shared window and its new debt to the shared debt (at
 * most the cap), then moves as much of the debt into the window as still fits under the limit.
 * KEYS: the window, the debt; ARGV: requests, new debt, limit, window expiry (ms), debt cap, debt
 * expiry (ms). Returns the window's total, what of the debt it took, and what is still owed.
 */
export const PAY_SCRIPT = `
local total = redis.call('INCRBY', KEYS[1], ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
local owed = tonumber(redis.call('GET', KEYS[2]) or '0') or 0
if tonumber(ARGV[2]) > 0 then owed = math.min(owed + tonumber(ARGV[2]), tonumber(ARGV[5])) end
local pay = math.min(owed, math.max(0, tonumber(ARGV[3]) - total))
if pay > 0 then total = redis.call('INCRBY', KEYS[1], pay) end
owed = owed - pay
if owed > 0 then redis.call('SET', KEYS[2], owed, 'PX', ARGV[6]) else redis.call('DEL', KEYS[2]) end
return {total, pay, owed}`;
