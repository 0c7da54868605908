import { compileGlob, routingRuleApplies, type RoutingRule, type SessionTool } from '@toolsearch/catalog';
import type { SearchAnswer, SearchHit } from '@toolsearch/search';
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
 * How many new pattern tests one search may make. What a catalog shows about a pattern is kept
 * (below) as long as the catalog, so the work of learning a config is done once per catalog, but
 * the config bounds it only loosely (1,000 patterns × a 20,000-tool catalog is 20 million tests,
 * over a second): a search stops learning at this budget, so no search holds the event loop for
 * long; the next searches carry on where it stopped. Until a pin rule's patterns are learnt, the
 * rule pins what is known so far and rules after it pin nothing; a boost not yet known is not
 * applied. About 3–10 ms of tests on this project's machine.
 */
export const ROUTING_SEARCH_BUDGET = 100_000;

/**
 * Pattern tests that a caller lets a series of searches make between them, e.g. one per tenant
 * that it refills each second: a search takes what it uses from `left` (and never more than
 * ROUTING_SEARCH_BUDGET). At 0 the searches still answer, without learning more of the rules.
 */
export interface RoutingBudget {
  left: number;
}

/** The pattern tests a search may still make, and whether a pin order stopped for want of them. */
interface Budget {
  left: number;
  pinsCut: boolean;
}

/**
 * What a catalog has shown about a pattern, kept as long as the catalog (a session's surface is
 * rebuilt when its toolsets change): the catalog positions it matches among the first `scanned`
 * tools. Memory is one number per match, not per tool.
 */
interface PinScan {
  scanned: number;
  readonly positions: number[];
}
const pinScans = new WeakMap<readonly SessionTool[], Map<string, PinScan>>();
function pinScanFor(catalog: readonly SessionTool[], key: string): PinScan {
  let byKey = pinScans.get(catalog);
  if (byKey === undefined) pinScans.set(catalog, (byKey = new Map()));
  let found = byKey.get(key);
  if (found === undefined) byKey.set(key, (found = { scanned: 0, positions: [] }));
  return found;
}

/**
 * Per catalog and pattern list, whether each tool matches one of the list's patterns (0 not yet
 * known, 1 yes, 2 no): boosts look up the hits of each search, and rules listing the same
 * patterns share it. A config names at most ROUTING_LIMITS.maxRules lists.
 */
const listVerdicts = new WeakMap<readonly SessionTool[], Map<string, Uint8Array>>();
function verdictsFor(catalog: readonly SessionTool[], key: string): Uint8Array {
  let byKey = listVerdicts.get(catalog);
  if (byKey === undefined) listVerdicts.set(catalog, (byKey = new Map()));
  let found = byKey.get(key);
  if (found === undefined) byKey.set(key, (found = new Uint8Array(catalog.length)));
  return found;
}

/** Whether the tool at `position` matches one of the patterns; undefined when the budget ran out first. */
function anyPatternMatches(
  catalog: readonly SessionTool[],
  position: number,
  patterns: CompiledPatterns,
  budget: Budget,
): boolean | undefined {
  const verdicts = verdictsFor(catalog, patterns.key);
  const verdict = verdicts[position];
  if (verdict !== 0) return verdict === 1;
  const tool = catalog[position];
  if (tool === undefined) return false;
  for (const pattern of patterns.patterns) {
    if (budget.left <= 0) return undefined;
    budget.left -= 1;
    if (pattern.test(tool)) {
      verdicts[position] = 1;
      return true;
    }
  }
  verdicts[position] = 2;
  return false;
}

/**
 * The tools a rule pins, in its pattern order then catalog order (a tool may repeat; the caller
 * skips it), learning each pattern's matches as far as it must and the budget allows. Returns
 * early, with `budget.pinsCut` set, when the budget runs out before the order is known.
 */
function* pinOrder(catalog: readonly SessionTool[], patterns: CompiledPatterns, budget: Budget): Generator<number> {
  for (const pattern of patterns.patterns) {
    const scan = pinScanFor(catalog, pattern.key);
    let next = 0;
    for (;;) {
      if (next < scan.positions.length) {
        yield scan.positions[next++] as number;
        continue;
      }
      if (scan.scanned >= catalog.length) break;
      if (budget.left <= 0) {
        budget.pinsCut = true;
        return;
      }
      budget.left -= 1;
      const tool = catalog[scan.scanned];
      if (tool !== undefined && pattern.test(tool)) scan.positions.push(scan.scanned);
      scan.scanned += 1;
    }
  }
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
 * tool, the rules that moved it (for explanations), the tools search withheld as no good match
 * (`SearchAnswer.nearest`: empty unless it did), and the answer they came from (explanations read
 * its confidence and flags; with rules it is the larger answer they re-ranked). New pattern tests are taken from `shared`
 * when it is given, as well as capped per search.
 */
export function routedSearch(
  session: BridgeSession,
  query: string,
  limit: number,
  shared?: RoutingBudget,
): { hits: SearchHit[]; rules: Map<string, string[]>; nearest: readonly SearchHit[]; answer: SearchAnswer } {
  const rules = session.config.routing
    .map((rule, index) => ({ rule, index }))
    .filter(({ rule }) => (rule.pin || rule.boost !== undefined) && routingRuleApplies(rule, query))
    .map(({ rule, index }) => ({ rule, index, patterns: compiled(rule) }));
  const moved = new Map<string, string[]>();
  if (rules.length === 0) {
    const answer = session.engine.answer(query, limit);
    return { hits: answer.hits, rules: moved, nearest: answer.nearest, answer };
  }
  const catalog = session.table.deferred;
  const granted = Math.max(0, Math.min(ROUTING_SEARCH_BUDGET, shared?.left ?? ROUTING_SEARCH_BUDGET));
  const budget: Budget = { left: granted, pinsCut: false };
  const note = (name: string, text: string) => {
    const notes = moved.get(name);
    if (notes === undefined) moved.set(name, [text]);
    else notes.push(text);
  };
  // Pinned tools come first, in rule order, then pattern order; past `limit` none would show.
  // They are worked out before the boosts, so that the budget goes to them first.
  const pinned: SearchHit[] = [];
  const isPinned = new Set<number>();
  for (const { rule, index, patterns } of rules) {
    if (!rule.pin || pinned.length >= limit) continue;
    for (const position of pinOrder(catalog, patterns, budget)) {
      if (pinned.length >= limit) break;
      const tool = catalog[position];
      if (tool === undefined || isPinned.has(position)) continue;
      isPinned.add(position);
      pinned.push({ index: position, name: tool.name, score: Number.POSITIVE_INFINITY, reason: 'rule' });
      note(tool.name, describeRule(rule, index));
    }
    // A later rule's tools would have to follow the part of this rule's order not yet known.
    if (budget.pinsCut) break;
  }
  const answer = session.engine.answer(query, Math.max(limit * 4, 20));
  let hits = answer.hits.map((hit) => {
    let score = hit.score;
    for (const { rule, index, patterns } of rules) {
      if (rule.boost === undefined || anyPatternMatches(catalog, hit.index, patterns, budget) !== true) continue;
      score *= rule.boost;
      note(hit.name, describeRule(rule, index));
    }
    return { ...hit, score };
  });
  hits = hits
    .map((hit, order) => ({ hit, order }))
    .sort((a, b) => b.hit.score - a.hit.score || a.order - b.order)
    .map(({ hit }) => hit);
  if (shared !== undefined) shared.left -= granted - budget.left;
  const rest = hits.filter((hit) => !isPinned.has(hit.index));
  return {
    hits: [...pinned, ...rest].slice(0, limit),
    rules: moved,
    nearest: answer.nearest.slice(0, limit),
    answer,
  };
}

/** The first rule that requires human confirmation for this tool, if any (for approval policy). */
export function confirmationRule(rules: readonly RoutingRule[], tool: SessionTool): RoutingRule | undefined {
  return rules.find((rule) => rule.confirm === true && compiled(rule).patterns.some((pattern) => pattern.test(tool)));
}
