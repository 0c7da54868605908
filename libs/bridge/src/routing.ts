import { compileGlob, routingRuleApplies, type RoutingRule, type SessionTool } from '@toolsearch/catalog';
import type { SearchHit } from '@toolsearch/search';
import type { BridgeSession } from './bridge-session';

/**
 * A compiled tool pattern (case-insensitive `*` wildcards, never a regular expression): it
 * matches a tool's model-facing or original name, or with `server:<label>` its source's label.
 */
function toolPattern(pattern: string): (tool: SessionTool) => boolean {
  if (pattern.startsWith('server:')) {
    const label = compileGlob(pattern.slice(7), { caseInsensitive: true });
    return (tool) => label.matches(tool.label);
  }
  const name = compileGlob(pattern, { caseInsensitive: true });
  return (tool) => name.matches(tool.name) || name.matches(tool.originalName);
}

/** Whether a tool matches a rule pattern: its model-facing or original name, or `server:<label>`. */
export function matchesToolPattern(tool: SessionTool, pattern: string): boolean {
  return toolPattern(pattern)(tool);
}

function describeRule(rule: RoutingRule, index: number): string {
  const what = [rule.pin ? 'pin' : undefined, rule.boost !== undefined ? `boost ×${rule.boost}` : undefined]
    .filter(Boolean)
    .join(', ');
  return `routing[${index}] (${what}${rule.when !== undefined ? ` when /${rule.when}/` : ''})`;
}

/**
 * Search with the session's routing rules applied: rules whose `when` matches the query pin
 * their tools to the top (in pattern order) or multiply their scores. Returns the hits and, per
 * tool, the rules that moved it (for explanations).
 */
export function routedSearch(
  session: BridgeSession,
  query: string,
  limit: number,
): { hits: SearchHit[]; rules: Map<string, string[]> } {
  const rules = session.config.routing
    .map((rule, index) => ({ rule, index }))
    .filter(({ rule }) => (rule.pin || rule.boost !== undefined) && routingRuleApplies(rule, query))
    .map(({ rule, index }) => ({ rule, index, patterns: rule.tools.map(toolPattern) }));
  const moved = new Map<string, string[]>();
  if (rules.length === 0) return { hits: session.engine.search(query, limit), rules: moved };
  const catalog = session.table.deferred;
  const note = (name: string, text: string) => moved.set(name, [...(moved.get(name) ?? []), text]);
  let hits = session.engine.search(query, Math.max(limit * 4, 20)).map((hit) => {
    const tool = catalog[hit.index];
    let score = hit.score;
    for (const { rule, index, patterns } of rules) {
      if (rule.boost === undefined || tool === undefined || !patterns.some((matches) => matches(tool))) continue;
      score *= rule.boost;
      note(hit.name, describeRule(rule, index));
    }
    return { ...hit, score };
  });
  hits = hits
    .map((hit, order) => ({ hit, order }))
    .sort((a, b) => b.hit.score - a.hit.score || a.order - b.order)
    .map(({ hit }) => hit);
  const pinned: SearchHit[] = [];
  for (const { rule, index, patterns } of rules) {
    if (!rule.pin) continue;
    for (const matches of patterns) {
      catalog.forEach((tool, position) => {
        if (!matches(tool) || pinned.some((hit) => hit.index === position)) return;
        pinned.push({ index: position, name: tool.name, score: Number.POSITIVE_INFINITY, reason: 'rule' });
        note(tool.name, describeRule(rule, index));
      });
    }
  }
  const rest = hits.filter((hit) => !pinned.some((pin) => pin.index === hit.index));
  return { hits: [...pinned, ...rest].slice(0, limit), rules: moved };
}

/** The first rule that requires human confirmation for this tool, if any (for approval policy). */
export function confirmationRule(rules: readonly RoutingRule[], tool: SessionTool): RoutingRule | undefined {
  return rules.find((rule) => rule.confirm === true && rule.tools.some((pattern) => matchesToolPattern(tool, pattern)));
}
