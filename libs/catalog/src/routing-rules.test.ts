import { describe, expect, it } from 'vitest';
import { parseToolSearchConfig } from './config';
import { QUERY_PATTERN_LIMITS } from './query-pattern';
import { ROUTING_LIMITS, routingRuleApplies } from './routing-rules';

const HOSTILE_QUERY = `${'a'.repeat(27)}!`;

function timed<T>(run: () => T): { value: T; ms: number } {
  const start = performance.now();
  const value = run();
  return { value, ms: performance.now() - start };
}

describe('routing rules', () => {
  it('drop a when RE2 cannot compile with a warning that names the rule', () => {
    const { config, warnings } = parseToolSearchConfig({
      routing: [
        { when: '(?=refund)re', tools: ['x'], pin: true },
        { when: '(invoice)\\1', tools: ['y'], pin: true },
        { when: 'refund', tools: ['z'], pin: true },
      ],
    });
    expect(config.routing).toEqual([{ when: 'refund', tools: ['z'], pin: true }]);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/^tools\.tool_search\.routing\[0\]\.when is not a valid regular expression in RE2/);
    expect(warnings[0]).toMatch(/\(\?=.*; the rule is ignored\.$/);
    expect(warnings[1]).toMatch(/^tools\.tool_search\.routing\[1\]\.when is not a valid regular expression in RE2/);
  });

  it('apply a catastrophic when in linear time', () => {
    const { config, warnings } = parseToolSearchConfig({ routing: [{ when: '^(a+)+$', tools: ['x'], pin: true }] });
    expect(warnings).toEqual([]);
    const [rule] = config.routing;
    if (rule === undefined) throw new Error('the rule was dropped');
    const { value, ms } = timed(() => routingRuleApplies(rule, HOSTILE_QUERY));
    expect(value).toBe(false);
    expect(ms).toBeLessThan(50);
    expect(routingRuleApplies(rule, 'AAAA')).toBe(true);
  });

  it('apply a rule built in code too, and never one whose when cannot compile', () => {
    const hostile = { when: '^(a+)+$', tools: ['x'], pin: true };
    expect(timed(() => routingRuleApplies(hostile, HOSTILE_QUERY)).ms).toBeLessThan(50);
    expect(routingRuleApplies({ when: '(?<=a)b', tools: ['x'], pin: true }, 'ab')).toBe(false);
    expect(routingRuleApplies({ tools: ['x'], pin: true }, 'anything')).toBe(true);
  });

  it("keep the config's when patterns within their instruction budget", () => {
    const { config, warnings } = parseToolSearchConfig({
      routing: [
        { when: '[ab]{900}', tools: ['x'], pin: true },
        { when: '[cd]{900}', tools: ['x'], pin: true },
        { when: '[ef]{900}', tools: ['x'], pin: true },
        { when: 'refund', tools: ['x'], pin: true },
      ],
    });
    expect(config.routing.map((rule) => rule.when)).toEqual(['[ab]{900}', '[cd]{900}', 'refund']);
    expect(warnings).toEqual([
      `tools.tool_search.routing[2].when takes the config's when patterns over ${QUERY_PATTERN_LIMITS.maxConfigProgramSize} RE2 instructions together; the rule is ignored.`,
    ]);
  });

  it('keep at most maxRules rules and maxWhenRules of them with a when', () => {
    const many = Array.from({ length: ROUTING_LIMITS.maxRules + 5 }, (_, index) => ({
      ...(index % 2 === 0 ? { when: `w${index}` } : {}),
      tools: ['x'],
      pin: true,
    }));
    const { config, warnings } = parseToolSearchConfig({ routing: many });
    expect(config.routing.filter((rule) => rule.when !== undefined)).toHaveLength(ROUTING_LIMITS.maxWhenRules);
    expect(config.routing).toHaveLength(ROUTING_LIMITS.maxRules / 2 + ROUTING_LIMITS.maxWhenRules);
    expect(warnings[0]).toContain(`only the first ${ROUTING_LIMITS.maxRules} are used`);
    expect(warnings[1]).toMatch(/^tools\.tool_search\.routing\[64\]\.when: at most 32 rules may have one/);
  });

  it('refuse a rule with too many tool patterns', () => {
    const tools = Array.from({ length: ROUTING_LIMITS.maxToolPatterns + 1 }, (_, index) => `t${index}`);
    const { config, warnings } = parseToolSearchConfig({ routing: [{ tools, boost: 2 }] });
    expect(config.routing).toEqual([]);
    expect(warnings[0]).toContain('routing[0].tools must be a non-empty list of at most 100 tool name patterns');
  });

  it('keep rules while the config names at most maxDistinctToolPatterns different tool patterns', () => {
    const perRule = ROUTING_LIMITS.maxToolPatterns;
    const rulesThatFit = ROUTING_LIMITS.maxDistinctToolPatterns / perRule;
    const routing = Array.from({ length: rulesThatFit + 2 }, (_, rule) => ({
      // The last rule repeats the first one's patterns (in another case): nothing new, so it stays.
      tools: Array.from({ length: perRule }, (_, i) => (rule === rulesThatFit + 1 ? `P0_${i}` : `p${rule}_${i}`)),
      boost: 2,
    }));
    const { config, warnings } = parseToolSearchConfig({ routing });
    expect(config.routing).toHaveLength(rulesThatFit + 1);
    expect(warnings).toEqual([
      `tools.tool_search.routing[${rulesThatFit}].tools: the rules may name at most ${ROUTING_LIMITS.maxDistinctToolPatterns} different tool patterns in all; the rule is ignored.`,
    ]);
  });
});
