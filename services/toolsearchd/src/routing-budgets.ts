import type { RoutingBudget } from '@toolsearch/bridge';

/**
 * Each tenant's allowance of routing-pattern tests on this replica, refilled continuously up to
 * one second's worth. Searches learn which tools a session config's routing patterns match as
 * they go (once per catalog); a config built to make that learning long (up to 1,000 many-star
 * patterns over a tenant's 20,000 tools is 20 million tests) spends its own tenant's allowance
 * and no one else's time: at 0 its searches still answer, with the rules learnt so far.
 */
export class RoutingBudgets {
  readonly #perSecond: number;
  readonly #now: () => number;
  readonly #budgets = new Map<string, { budget: RoutingBudget; at: number }>();

  constructor(perSecond: number, now: () => number = () => performance.now()) {
    this.#perSecond = perSecond;
    this.#now = now;
  }

  /** The tenant's budget, refilled for the time since it was last asked for. */
  for(tenant: string): RoutingBudget {
    const now = this.#now();
    const held = this.#budgets.get(tenant);
    if (held === undefined) {
      if (this.#budgets.size >= MAX_TRACKED) this.#forgetFull(now);
      const budget = { left: this.#perSecond };
      this.#budgets.set(tenant, { budget, at: now });
      return budget;
    }
    const refill = ((now - held.at) / 1000) * this.#perSecond;
    held.budget.left = Math.min(this.#perSecond, held.budget.left + refill);
    held.at = now;
    return held.budget;
  }

  /** Drops the tenants whose allowance has refilled (they start full again when they come back). */
  #forgetFull(now: number): void {
    for (const [tenant, held] of this.#budgets)
      if (held.budget.left + ((now - held.at) / 1000) * this.#perSecond >= this.#perSecond)
        this.#budgets.delete(tenant);
  }
}

/** Tenants tracked before the idle ones are dropped. */
const MAX_TRACKED = 10_000;
