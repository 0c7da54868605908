import { compileGlob, routingRuleApplies, type RoutingRule, type SessionTool } from '@toolsearch/catalog';
import type { SearchHit } from '@toolsearch/search';
import type { BridgeSession } from './bridge-session';

/** A tool's names as patterns compare them: lower-cased once per tool, not once per test. */
interface FoldedTool {
  readonly name: string;
  readonly originalName: string;
  readonly label: string;
}
const foldedTools = new WeakMap<SessionTool, FoldedTool>();
function folded(tool: SessionTool): FoldedTool {
  let names = foldedTools.get(tool);
  if (names === undefined) {
    names = {
      name: tool.name.toLowerCase(),
      originalName: tool.originalName.toLowerCase(),
      label: tool.label.toLowerCase(),
    };
    foldedTools.set(tool, names);
  }
  return names;
}

/**
 * A compiled tool pattern (case-insensitive `*` wildcards, never a regular expression): it
 * matches a tool's model-facing or original name, or with `server:<label>` its source's label.
 */
function toolPattern(pattern: string): (tool: SessionTool) => boolean {
  const lower = pattern.toLowerCase();
  if (lower.startsWith('server:')) {
    const label = compileGlob(lower.slice(7));
    return (tool) => label.matches(folded(tool).label);
  }
  const name = compileGlob(lower);
  return (tool) => {
    const names = folded(tool);
    return name.matches(names.name) || name.matches(names.originalName);
  };
}

/** Compiled patterns by text, for callers that hold only the text (call policies); bounded. */
const compiledByText = new Map<string, (tool: SessionTool) => boolean>();
const COMPILED_BY_TEXT_LIMIT = 4096;

/** Whether a tool matches a rule pattern: its model-facing or original name, or `server:<label>`. */
export function matchesToolPattern(tool: SessionTool, pattern: string): boolean {
  let test = compiledByText.get(pattern);
  if (test === undefined) {
    if (compiledByText.size >= COMPILED_BY_TEXT_LIMIT) compiledByText.clear();
    test = toolPattern(pattern);
    compiledByText.set(pattern, test);
  }
  return test(tool);
}

/** One tool pattern, compiled, and the text it was compiled from (lower-cased: its cache key). */
interface CompiledPattern {
  readonly key: string;
  readonly test: (tool: SessionTool) => boolean;
}

/**
 * A rule's tool patterns, compiled once per rule (a parsed config is cached, so once per config),
 * with a key naming the pattern list: rules listing the same patterns share what is learnt below.
 */
interface CompiledPatterns {
  readonly key: string;
  readonly patterns: readonly CompiledPattern[];
}
const compiledRules = new WeakMap<RoutingRule, CompiledPatterns>();
function compiled(rule: RoutingRule): CompiledPatterns {
  let found = compiledRules.get(rule);
  if (found === undefined) {
    const patterns = rule.tools.map((pattern) => ({ key: pattern.toLowerCase(), test: toolPattern(pattern) }));
    found = { key: patterns.map((pattern) => pattern.key).join('\u0000'), patterns };
    compiledRules.set(rule, found);
  }
  return found;
}

/**
 * What a catalog has shown about a pattern or a pattern list, kept as long as the catalog (a
 * session's surface is rebuilt when its toolsets change): per tool whether it matches (0 not yet
 * known, 1 yes, 2 no), and the matching tools in order. Each pattern is tested against each tool
 * at most once over the catalog's life, however many rules, sessions and queries repeat it (the
 * config bounds the different patterns, ROUTING_LIMITS.maxDistinctToolPatterns): a config of
 * 100 rules × 100 many-star patterns cost 50 ms per query when every search tested them all again.
 */
interface Learnt {
  readonly verdicts: Uint8Array;
  matching?: readonly number[];
}
const learntPatterns = new WeakMap<readonly SessionTool[], Map<string, Learnt>>();
const learntLists = new WeakMap<readonly SessionTool[], Map<string, Learnt>>();
function learntFor(catalog: readonly SessionTool[], key: string, of = learntPatterns): Learnt {
  let byKey = of.get(catalog);
  if (byKey === undefined) of.set(catalog, (byKey = new Map()));
  let found = byKey.get(key);
  if (found === undefined) byKey.set(key, (found = { verdicts: new Uint8Array(catalog.length) }));
  return found;
}

function patternMatches(catalog: readonly SessionTool[], position: number, pattern: CompiledPattern): boolean {
  const known = learntFor(catalog, pattern.key);
  const verdict = known.verdicts[position];
  if (verdict !== 0) return verdict === 1;
  const tool = catalog[position];
  const matches = tool !== undefined && pattern.test(tool);
  known.verdicts[position] = matches ? 1 : 2;
  return matches;
}

function anyPatternMatches(catalog: readonly SessionTool[], position: number, patterns: CompiledPatterns): boolean {
  const known = learntFor(catalog, patterns.key, learntLists);
  const verdict = known.verdicts[position];
  if (verdict !== 0) return verdict === 1;
  const matches = patterns.patterns.some((pattern) => patternMatches(catalog, position, pattern));
  known.verdicts[position] = matches ? 1 : 2;
  return matches;
}

/** The catalog positions a pattern matches, in catalog order. */
function matching(catalog: readonly SessionTool[], pattern: CompiledPattern): readonly number[] {
  const known = learntFor(catalog, pattern.key);
  if (known.matching === undefined) {
    const positions: number[] = [];
    for (let position = 0; position < catalog.length; position++)
      if (patternMatches(catalog, position, pattern)) positions.push(position);
    known.matching = positions;
  }
  return known.matching;
}

/** The tools a rule pins, in its pattern order then catalog order, each once. */
function* pinOrder(catalog: readonly SessionTool[], patterns: CompiledPatterns): Generator<number> {
  for (const pattern of patterns.patterns) yield* matching(catalog, pattern);
}

const descriptions = new WeakMap<RoutingRule, string>();
function describeRule(rule: RoutingRule, index: number): string {
  let description = descriptions.get(rule);
  if (description === undefined) descriptions.set(rule, (description = describeRuleNow(rule, index)));
  return description;
}

function describeRuleNow(rule: RoutingRule, index: number): string {
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
    .map(({ rule, index }) => ({ rule, index, patterns: compiled(rule) }));
  const moved = new Map<string, string[]>();
  if (rules.length === 0) return { hits: session.engine.search(query, limit), rules: moved };
  const catalog = session.table.deferred;
  const note = (name: string, text: string) => {
    const notes = moved.get(name);
    if (notes === undefined) moved.set(name, [text]);
    else notes.push(text);
  };
  let hits = session.engine.search(query, Math.max(limit * 4, 20)).map((hit) => {
    let score = hit.score;
    for (const { rule, index, patterns } of rules) {
      if (rule.boost === undefined || !anyPatternMatches(catalog, hit.index, patterns)) continue;
      score *= rule.boost;
      note(hit.name, describeRule(rule, index));
    }
    return { ...hit, score };
  });
  hits = hits
    .map((hit, order) => ({ hit, order }))
    .sort((a, b) => b.hit.score - a.hit.score || a.order - b.order)
    .map(({ hit }) => hit);
  // Pinned tools come first, in rule order, then pattern order; past `limit` none would show.
  const pinned: SearchHit[] = [];
  const isPinned = new Set<number>();
  for (const { rule, index, patterns } of rules) {
    if (!rule.pin || pinned.length >= limit) continue;
    for (const position of pinOrder(catalog, patterns)) {
      if (pinned.length >= limit) break;
      const tool = catalog[position];
      if (tool === undefined || isPinned.has(position)) continue;
      isPinned.add(position);
      pinned.push({ index: position, name: tool.name, score: Number.POSITIVE_INFINITY, reason: 'rule' });
      note(tool.name, describeRule(rule, index));
    }
  }
  const rest = hits.filter((hit) => !isPinned.has(hit.index));
  return { hits: [...pinned, ...rest].slice(0, limit), rules: moved };
}

/** The first rule that requires human confirmation for this tool, if any (for approval policy). */
export function confirmationRule(rules: readonly RoutingRule[], tool: SessionTool): RoutingRule | undefined {
  return rules.find((rule) => rule.confirm === true && compiled(rule).patterns.some((pattern) => pattern.test(tool)));
}
