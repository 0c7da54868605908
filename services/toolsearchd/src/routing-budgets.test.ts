import { describe, expect, it } from 'vitest';
import { RoutingBudgets } from './routing-budgets';

describe('RoutingBudgets', () => {
  it("refills each tenant's allowance over time, up to one second's worth, apart from the others", () => {
    let now = 0;
    const budgets = new RoutingBudgets(1000, () => now);
    const a = budgets.for('a');
    expect(a.left).toBe(1000);
    a.left -= 1000;
    expect(budgets.for('b').left).toBe(1000);
    now = 250;
    expect(budgets.for('a').left).toBe(250);
    now = 10_000;
    expect(budgets.for('a').left).toBe(1000);
  });
});
