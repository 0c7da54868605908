import { compileQueryPattern, QUERY_PATTERN_LIMITS, type QueryPattern } from './query-pattern';

/**
 * An explicit routing rule (seed 002): for requests matching `when`, look at certain tools first
 * (`pin`) or rank them higher (`boost`); or mark tools that always need human confirmation.
 * Tool patterns match a tool's model-facing or original name (`*` is a wildcard), or its source
 * with `server:<label>`.
 */
export interface RoutingRule {
  /** Case-insensitive RE2 pattern searched for in the query; absent = every query. */
  readonly when?: string;
  readonly tools: readonly string[];
  /** Multiply matching tools' scores by this (1–100). */
  readonly boost?: number;
  /** Put matching tools first, in pattern order, even when no query word matched them. */
  readonly pin?: boolean;
  /** Matching tools always need human confirmation before they run. */
  readonly confirm?: boolean;
}

/**
 * How many routing rules a config keeps, how many of them may have a `when` (each is searched for
 * in every query, at up to a few ms for a hostile pattern), how many tool patterns a rule has, and
 * how many different tool patterns the whole config has: each is tested once against every tool
 * of the session's catalog (then remembered), so their number bounds that work.
 */
export const ROUTING_LIMITS = {
  maxRules: 100,
  maxWhenRules: 32,
  maxToolPatterns: 100,
  maxToolPatternLength: 200,
  maxDistinctToolPatterns: 1000,
} as const;

/**
 * Each rule's compiled `when`, kept as long as the rule (a parsed config is cached, so a pattern
 * is compiled once per config). `null`: the pattern cannot be used, so the rule never applies.
 */
const compiledWhen = new WeakMap<RoutingRule, QueryPattern | null>();

/**
 * Whether a rule applies to a query: it has no `when`, or its `when` matches somewhere in the
 * query (case-insensitive, RE2). Linear in the query, whatever the pattern.
 */
export function routingRuleApplies(rule: RoutingRule, query: string): boolean {
  if (rule.when === undefined) return true;
  let pattern = compiledWhen.get(rule);
  if (pattern === undefined) {
    // A rule built in code rather than parsed: compile it now, alone against the budget.
    const compiled = compileQueryPattern(rule.when);
    pattern = compiled.ok ? compiled.pattern : null;
    compiledWhen.set(rule, pattern);
  }
  return pattern !== null && pattern.test(query);
}

/**
 * The `routing` key: the well-formed rules, in order, their `when` compiled. Every rule that is
 * dropped gets a warning that names it and says why.
 */
export function readRoutingRules(raw: Record<string, unknown>, warnings: string[]): RoutingRule[] {
  const value = raw['routing'];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    warnings.push('tools.tool_search.routing must be a list of rules; it is ignored.');
    return [];
  }
  if (value.length > ROUTING_LIMITS.maxRules) {
    warnings.push(
      `tools.tool_search.routing has ${value.length} rules; only the first ${ROUTING_LIMITS.maxRules} are used.`,
    );
  }
  const rules: RoutingRule[] = [];
  let budget: number = QUERY_PATTERN_LIMITS.maxConfigProgramSize;
  let whens = 0;
  const distinct = new Set<string>();
  value.slice(0, ROUTING_LIMITS.maxRules).forEach((item: unknown, index) => {
    const where = `tools.tool_search.routing[${index}]`;
    const problem = routingProblem(item, where);
    if (problem !== undefined) {
      warnings.push(`${problem}; the rule is ignored.`);
      return;
    }
    const entry = item as Record<string, unknown>;
    const fresh = new Set(
      (entry['tools'] as string[]).map((t) => t.trim().toLowerCase()).filter((t) => !distinct.has(t)),
    );
    if (distinct.size + fresh.size > ROUTING_LIMITS.maxDistinctToolPatterns) {
      warnings.push(
        `${where}.tools: the rules may name at most ${ROUTING_LIMITS.maxDistinctToolPatterns} different tool patterns in all; the rule is ignored.`,
      );
      return;
    }
    let pattern: QueryPattern | undefined;
    if (typeof entry['when'] === 'string') {
      if (whens === ROUTING_LIMITS.maxWhenRules) {
        warnings.push(`${where}.when: at most ${ROUTING_LIMITS.maxWhenRules} rules may have one; the rule is ignored.`);
        return;
      }
      whens += 1;
      const compiled = compileQueryPattern(entry['when'], budget);
      budget -= compiled.ok ? compiled.pattern.size : compiled.size;
      if (!compiled.ok) {
        warnings.push(`${where}.when ${compiled.message}; the rule is ignored.`);
        return;
      }
      pattern = compiled.pattern;
    }
    const rule: RoutingRule = {
      ...(pattern !== undefined ? { when: pattern.source } : {}),
      tools: (entry['tools'] as string[]).map((t) => t.trim()),
      ...(typeof entry['boost'] === 'number' ? { boost: entry['boost'] } : {}),
      ...(entry['pin'] === true ? { pin: true } : {}),
      ...(entry['confirm'] === true ? { confirm: true } : {}),
    };
    if (pattern !== undefined) compiledWhen.set(rule, pattern);
    for (const toolPattern of fresh) distinct.add(toolPattern);
    rules.push(rule);
  });
  return rules;
}

/** What is wrong with a routing rule's shape, or undefined when it is well-formed. */
function routingProblem(item: unknown, where: string): string | undefined {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return `${where} is not a mapping`;
  const rule = item as Record<string, unknown>;
  const tools = rule['tools'];
  const { maxToolPatterns, maxToolPatternLength } = ROUTING_LIMITS;
  if (
    !Array.isArray(tools) ||
    tools.length === 0 ||
    tools.length > maxToolPatterns ||
    !tools.every((t) => typeof t === 'string' && t.trim() !== '' && t.length <= maxToolPatternLength)
  ) {
    return `${where}.tools must be a non-empty list of at most ${maxToolPatterns} tool name patterns (or server:<label>) of at most ${maxToolPatternLength} characters`;
  }
  const when = rule['when'];
  if (when !== undefined && (typeof when !== 'string' || when.length > QUERY_PATTERN_LIMITS.maxLength))
    return `${where}.when must be a pattern of at most ${QUERY_PATTERN_LIMITS.maxLength} characters`;
  const boost = rule['boost'];
  if (boost !== undefined && (typeof boost !== 'number' || !(boost >= 1 && boost <= 100)))
    return `${where}.boost must be a number from 1 to 100`;
  for (const flag of ['pin', 'confirm'] as const) {
    if (rule[flag] !== undefined && typeof rule[flag] !== 'boolean') return `${where}.${flag} must be true or false`;
  }
  if (boost === undefined && rule['pin'] !== true && rule['confirm'] !== true)
    return `${where} does nothing: give it boost, pin or confirm`;
  return undefined;
}
