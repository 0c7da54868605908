import { describe, expect, it } from 'vitest';
import { tool, toolset } from '@toolsearch/testing';
import {
  approvalReason,
  confirmationRule,
  DEFAULT_CALL_POLICY,
  guardrailVerdict,
  handleToolSearch,
  routedSearch,
  ROUTING_SEARCH_BUDGET,
} from '../src/index';
import { longToolNames, manyStarPatterns, sessionOf } from './bridge-fixture';

const toolsets = [
  toolset('support', [
    tool('search_faq', 'Search the frequently asked questions about accounts and billing.', ['keyword']),
    tool('search_refund_policy', 'Look up the rules for refunds, invoices and address changes.', ['keyword']),
  ]),
  toolset('billing', [
    tool('void_invoice', 'Cancel an invoice that was issued by mistake.', ['id']),
    tool('list_invoices', 'List the invoices of a customer.'),
  ]),
  toolset('shop', [tool('delete_order', 'Delete an order.'), tool('get_order', 'One order with its items.')]),
];

describe('routing rules', () => {
  it("pins the rule's tools first for matching requests only", () => {
    const session = sessionOf(toolsets, { routing: [{ when: 'money back|refund', tools: ['*refund*'], pin: true }] });
    const routed = routedSearch(session, 'I want my money back', 3);
    expect(routed.hits[0]).toMatchObject({ name: 'support__search_refund_policy', reason: 'rule' });
    expect(routed.rules.get('support__search_refund_policy')?.[0]).toContain('routing[0] (pin');
    expect(routedSearch(session, 'frequently asked questions', 1).hits[0]?.name).toBe('support__search_faq');
  });

  it('boosts tools of a server so they outrank close competitors', () => {
    const plain = sessionOf(toolsets);
    const boosted = sessionOf(toolsets, { routing: [{ tools: ['server:billing'], boost: 10 }] });
    const query = 'rules for refunds invoices and address changes';
    expect(routedSearch(plain, query, 1).hits[0]?.name).toBe('support__search_refund_policy');
    expect(routedSearch(boosted, query, 1).hits[0]?.name).toMatch(/^billing__/);
  });

  it('finds the rule that requires confirmation for a tool', () => {
    const session = sessionOf(toolsets, { routing: [{ tools: ['delete_*', 'server:billing'], confirm: true }] });
    const ruleFor = (name: string) => {
      const found = session.table.byName.get(name);
      if (found === undefined) throw new Error(`no tool ${name}`);
      return confirmationRule(session.config.routing, found);
    };
    expect(ruleFor('shop__delete_order')).toBeDefined();
    expect(ruleFor('billing__list_invoices')).toBeDefined();
    expect(ruleFor('shop__get_order')).toBeUndefined();
  });
});

describe('hostile patterns', () => {
  const elapsed = (run: () => void) => {
    const start = performance.now();
    run();
    return performance.now() - start;
  };
  const longNames = [
    toolset('long', [tool('a'.repeat(58), 'A tool with a long name.'), tool(`${'a'.repeat(57)}b`, 'x')]),
  ];

  it('a catastrophic when costs a search no more than a plain one', () => {
    const session = sessionOf(toolsets, { routing: [{ when: '^(a+)+$', tools: ['*refund*'], pin: true }] });
    expect(elapsed(() => expect(routedSearch(session, `${'a'.repeat(27)}!`, 3).rules.size).toBe(0))).toBeLessThan(50);
  });

  it('wildcards with many stars match long tool names in bounded time', () => {
    const pattern = '*a*a*a*a*a*a*a*a*b';
    const session = sessionOf(longNames, {
      routing: [
        { tools: [pattern], boost: 2 },
        { tools: [pattern], confirm: true },
      ],
    });
    const byOriginal = (name: string) => session.table.deferred.find((found) => found.originalName === name);
    const plain = byOriginal('a'.repeat(58));
    const withB = byOriginal(`${'a'.repeat(57)}b`);
    if (plain === undefined || withB === undefined) throw new Error('missing tools');
    const policy = {
      ...DEFAULT_CALL_POLICY,
      deny: [pattern],
      approval: { ...DEFAULT_CALL_POLICY.approval, tools: [pattern] },
    };
    const ms = elapsed(() => {
      routedSearch(session, 'long name', 5);
      expect(guardrailVerdict(policy, plain)).toEqual({ allowed: true });
      expect(approvalReason(policy, plain, session.config.routing)).toBeUndefined();
      expect(confirmationRule(session.config.routing, plain)).toBeUndefined();
    });
    expect(ms).toBeLessThan(50);
    expect(guardrailVerdict(policy, withB).allowed).toBe(false);
  });
});

describe('search explanations', () => {
  it('say which terms matched in which fields, what they added, and when a rule moved a tool', () => {
    const session = sessionOf(toolsets, { routing: [{ tools: ['server:billing'], boost: 2 }] });
    const outcome = handleToolSearch(session, { queries: ['cancel invoice'] }, { explain: true });
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    const [group] = outcome.explain ?? [];
    const first = group?.matches[0];
    expect(first).toMatchObject({ rank: 1, name: 'billing__void_invoice', reason: 'bm25' });
    expect(first?.terms.map((term) => term.term)).toEqual(['cancel', 'invoic']);
    expect(first?.terms[1]?.fields).toMatchObject({ name: 2, description: 1 });
    expect(first?.rules).toEqual(['routing[0] (boost ×2)']);
    expect(first?.why).toContain('matched cancel, invoic');
    expect(handleToolSearch(session, { queries: ['cancel invoice'] })).not.toHaveProperty('explain');
  });

  it('say why an exact name and a name fallback came first', () => {
    const session = sessionOf(toolsets);
    const outcome = handleToolSearch(session, { queries: ['shop__get_order', 'oid_inv'] }, { explain: true });
    if (!outcome.ok) throw new Error(outcome.error.message);
    expect(outcome.explain?.[0]?.matches[0]?.why).toContain("exactly this tool's name");
    expect(outcome.explain?.[1]?.matches[0]).toMatchObject({ name: 'billing__void_invoice', reason: 'substring' });
  });

  it('the largest config of many-star patterns costs little per search once the catalog has been seen', () => {
    const long = toolset(
      'long',
      longToolNames(200).map((name) => tool(name, `A tool with a long name ${name}.`)),
    );
    const patterns = manyStarPatterns();
    const routing = Array.from({ length: 100 }, (_, i) =>
      i < 32 ? { when: `a{${i + 1}}`, tools: patterns, pin: true } : { tools: patterns, boost: 2 },
    );
    const session = sessionOf([long], { routing });
    const queries = Array.from({ length: 40 }, (_, i) => `${'a'.repeat(20 + i)} ${'ab '.repeat(i)}!`);
    const first = routedSearch(session, queries[0] ?? '', 10);
    const started = performance.now();
    for (const query of queries) routedSearch(session, query, 10);
    const perSearch = (performance.now() - started) / queries.length;
    // Matching every pattern against every hit and tool on each search took ~50 ms per search.
    expect(perSearch).toBeLessThan(5);
    // And the rules still act: the pinned tools lead, in pattern order.
    expect(first.hits[0]?.reason).toBe('rule');
    expect(first.rules.size).toBeGreaterThan(0);
  });

  it('a config too large to learn in one search is learnt over several, none of them long', () => {
    // 1,000 different patterns that get far into a 60-character name before failing, over 20,000
    // tools: 20 million tests, over a second in one search before the budget.
    const names = longToolNames(20_000);
    const long = toolset(
      'long',
      names.map((name) => tool(name, 'A tool with a long name.')),
    );
    // No name has a '-': each test finds the a's and fails at the end (999 + 1 = the most patterns).
    const hostile = Array.from({ length: 10 }, (_, rule) => ({
      tools: Array.from({ length: rule < 9 ? 100 : 99 }, (_, i) => `${'*a'.repeat(12 + (i % 8))}*-${rule * 100 + i}*b`),
      pin: true,
    }));
    const last = names[names.length - 1] ?? '';
    const session = sessionOf([long], { routing: [...hostile, { tools: [last], pin: true }] });
    const times: number[] = [];
    let searches = 0;
    let pinnedAt: number | undefined;
    while (pinnedAt === undefined && searches < 400) {
      const started = performance.now();
      const { hits } = routedSearch(session, 'long name', 5);
      times.push(performance.now() - started);
      searches += 1;
      if (hits[0]?.reason === 'rule') pinnedAt = searches;
    }
    // 20 million tests at the budget per search: about 200 searches, then the last rule pins.
    expect(pinnedAt).toBeGreaterThanOrEqual(Math.floor((999 * names.length) / ROUTING_SEARCH_BUDGET));
    expect(pinnedAt).toBeLessThanOrEqual(Math.ceil((999 * names.length) / ROUTING_SEARCH_BUDGET) + 1);
    // The first search also warms the engine and folds 20,000 names; each later one learns at most the budget.
    const later = times.slice(1).sort((a, b) => a - b);
    expect(times[0]).toBeLessThan(500);
    expect(later[Math.floor(later.length / 2)]).toBeLessThan(25);
    // The slowest of ~200 (185 ms once with the whole suite beside it): far from a whole pass.
    expect(Math.max(...later)).toBeLessThan(300);
    const { hits } = routedSearch(session, 'long name', 5);
    expect(hits[0]).toMatchObject({ reason: 'rule' });
    // About 200 searches of up to 25 ms each: over vitest's default of 5 s on a busy machine.
  }, 30_000);

  it("takes its tests from a caller's shared allowance, and still answers when it is spent", () => {
    const long = toolset(
      'long',
      longToolNames(2_000).map((name) => tool(name, 'A tool with a long name.')),
    );
    const patterns = Array.from({ length: 100 }, (_, i) => `${'*a'.repeat(12)}*-${i}*b`);
    const last = longToolNames(2_000)[1_999] ?? '';
    const session = sessionOf([long], {
      routing: [
        { tools: patterns, pin: true },
        { tools: [last], pin: true },
      ],
    });
    const allowance = { left: 0 };
    // Nothing to learn with: the search answers from the words alone.
    expect(routedSearch(session, 'long name', 3, allowance).hits[0]?.reason).not.toBe('rule');
    expect(allowance.left).toBe(0);
    // 100 patterns × 2,000 tools to learn before the last rule: two searches at the per-search cap.
    for (const search of [1, 2]) {
      allowance.left = 150_000;
      const { hits } = routedSearch(session, 'long name', 3, allowance);
      expect(allowance.left, `search ${search}`).toBe(150_000 - ROUTING_SEARCH_BUDGET);
      expect(hits[0]?.reason).not.toBe('rule');
    }
    // Then one test per tool for the last rule, the last of which is its tool.
    const [first] = routedSearch(session, 'long name', 3, allowance).hits;
    expect(first?.reason).toBe('rule');
    expect(session.table.deferred[first?.index ?? -1]?.originalName).toBe(last);
    expect(allowance.left).toBe(150_000 - ROUTING_SEARCH_BUDGET - 2_000);
    // Once learnt, searches cost the allowance nothing.
    routedSearch(session, 'long name', 3, allowance);
    expect(allowance.left).toBe(150_000 - ROUTING_SEARCH_BUDGET - 2_000);
  });
});
