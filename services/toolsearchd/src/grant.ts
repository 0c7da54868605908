import { baseModelName, compileGlob, toolsetLabel, type Glob, type Toolset } from '@toolsearch/catalog';
import type { Grant } from '@toolsearch/proto';

/**
 * The allow lists of a session's ancestors: a tool reaches the session only if it also matches
 * one pattern of each. This is what keeps a child within its parent when toolsets change after
 * the child was opened (a check at open time alone would not).
 */
export type AncestorAllows = readonly (readonly string[])[];

/**
 * The names a grant pattern is compared with, per tool of a toolset (kept as long as the toolset
 * value): the tool's original name, `<toolset id>/<name>`, and the model-facing name the model
 * sees (`github__merge_pr` for an MCP server's tools; the name before any collision suffix, which
 * keeps the same stem).
 */
const toolNames = new WeakMap<Toolset, readonly (readonly string[])[]>();
function namesOf(toolset: Toolset): readonly (readonly string[])[] {
  let names = toolNames.get(toolset);
  if (names === undefined) {
    const namespace = toolset.kind === 'mcp' ? { namespace: toolsetLabel(toolset) } : {};
    names = toolset.tools.map(({ name }) => {
      const modelName = baseModelName({ toolset: toolset.id, originalName: name, ...namespace });
      const qualified = `${toolset.id}/${name}`;
      return modelName === name ? [name, qualified] : [name, qualified, modelName];
    });
    toolNames.set(toolset, names);
  }
  return names;
}

/**
 * A list of grant patterns, compiled: those without `*` are looked up in a set, the others tested
 * one by one (linear-time globs, never regular expressions: a grant is tenant text).
 */
class PatternList {
  readonly #exact: Set<string>;
  readonly #globs: readonly Glob[];

  constructor(patterns: readonly string[]) {
    this.#exact = new Set(patterns.filter((pattern) => !pattern.includes('*')));
    this.#globs = patterns.filter((pattern) => pattern.includes('*')).map((pattern) => compileGlob(pattern));
  }

  matches(names: readonly string[]): boolean {
    return names.some((name) => this.#exact.has(name) || this.#globs.some((glob) => glob.matches(name)));
  }
}

/**
 * What filtering toolsets by a grant costs: its wildcard patterns (its own and its ancestors')
 * times the names they are tested against. Patterns without `*` cost nothing (a set lookup).
 */
/** Whether a change to any of `toolsets` can change what a session with this grant sees. */
export function grantReaches(grant: Grant, toolsets: { has(id: string): boolean } | readonly string[]): boolean {
  const has = Array.isArray(toolsets)
    ? (id: string) => (toolsets as readonly string[]).includes(id)
    : (id: string) => (toolsets as { has(id: string): boolean }).has(id);
  return grant.toolsets.some(has);
}

export function grantTests(grant: Grant, ancestors: AncestorAllows, registered: Iterable<Toolset>): number {
  const stars = [grant.allow ?? [], grant.deny ?? [], ...ancestors]
    .flat()
    .filter((pattern) => pattern.includes('*')).length;
  if (stars === 0) return 0;
  const granted = new Set(grant.toolsets);
  let names = 0;
  for (const toolset of registered) if (granted.has(toolset.id)) names += toolset.tools.length * 3;
  return stars * names;
}

/** A child's effective grant: its own toolsets, the parent's allow list if it gave none, both deny lists. */
export function narrowGrant(child: Grant, parent: Grant): Grant {
  const allow = child.allow ?? parent.allow;
  const deny = [...new Set([...(parent.deny ?? []), ...(child.deny ?? [])])];
  return { toolsets: child.toolsets, ...(allow !== undefined ? { allow } : {}), ...(deny.length > 0 ? { deny } : {}) };
}

/** The allow lists a child of a session with this grant must also pass: the session's own and its ancestors'. */
export function ancestorAllowsOf(parent: Grant, parentAncestors: AncestorAllows): AncestorAllows {
  return parent.allow === undefined ? parentAncestors : [...parentAncestors, parent.allow];
}

/**
 * Where `applyGrant` keeps the toolsets it narrowed, per toolset value and grant (the caller
 * bounds it: the daemon's `SurfaceBuilder` keeps them in a cache fair between tenants).
 */
export interface NarrowedToolsets {
  getOrMake(toolset: Toolset, grantKey: string, make: () => Toolset): Toolset;
}

/**
 * The toolsets a grant reaches: only granted toolset ids, and within them only tools whose name
 * (original, `<toolset id>/<name>` or model-facing) passes the allow and deny patterns and one
 * pattern of each ancestor's allow list. With `kept`, equal grants over equal toolset values give
 * the same objects (and so hits in the caches keyed by toolset content); without it, new ones.
 */
export function applyGrant(
  toolsets: Iterable<Toolset>,
  grant: Grant,
  ancestors: AncestorAllows = [],
  kept?: NarrowedToolsets,
): Toolset[] {
  const ids = new Set(grant.toolsets);
  // Case-sensitive `*` wildcards.
  const allow = grant.allow === undefined ? undefined : new PatternList(grant.allow);
  const deny = grant.deny === undefined || grant.deny.length === 0 ? undefined : new PatternList(grant.deny);
  const within = ancestors.map((patterns) => new PatternList(patterns));
  const key = JSON.stringify([grant.allow ?? null, grant.deny ?? [], ancestors]);
  const out: Toolset[] = [];
  for (const toolset of toolsets) {
    if (!ids.has(toolset.id)) continue;
    if (allow === undefined && deny === undefined && within.length === 0) {
      out.push(toolset);
      continue;
    }
    const narrow = () => {
      const names = namesOf(toolset);
      const passes = (index: number) => {
        const own = names[index] ?? [];
        if (allow !== undefined && !allow.matches(own)) return false;
        if (within.some((list) => !list.matches(own))) return false;
        return deny === undefined || !deny.matches(own);
      };
      return Object.freeze({ ...toolset, tools: toolset.tools.filter((_, index) => passes(index)) });
    };
    out.push(kept === undefined ? narrow() : kept.getOrMake(toolset, key, narrow));
  }
  return out;
}

const reachKey = (toolset: string, tool: string) => `${toolset}\u0000${tool}`;

/**
 * Whether a child's grant stays within its parent's, over the toolsets registered now: every
 * toolset of the child is the parent's, and every tool the child's own patterns reach, the parent
 * reaches too (so `alpha_read` under `alpha_*` is within, `*` under `alpha_*` is not). Later
 * changes are kept within by the ancestors' allow lists (see applyGrant). Returns the reason when
 * it does not.
 */
export function exceedsParent(
  child: Grant,
  parent: Grant,
  parentAncestors: AncestorAllows,
  registered: Iterable<Toolset>,
): string | undefined {
  const parentToolsets = new Set(parent.toolsets);
  const extra = child.toolsets.filter((id) => !parentToolsets.has(id));
  if (extra.length > 0) return `the parent session does not have toolset(s) ${extra.join(', ')}`;
  const toolsets = [...registered];
  const parentReach = new Set<string>();
  for (const toolset of applyGrant(toolsets, parent, parentAncestors))
    for (const tool of toolset.tools) parentReach.add(reachKey(toolset.id, tool.name));
  const beyond: string[] = [];
  for (const toolset of applyGrant(toolsets, child))
    for (const tool of toolset.tools)
      if (!parentReach.has(reachKey(toolset.id, tool.name))) beyond.push(`${toolset.id}/${tool.name}`);
  if (beyond.length === 0) return undefined;
  const named = beyond.slice(0, 5).join(', ');
  return `the parent session cannot reach ${named}${beyond.length > 5 ? ` and ${beyond.length - 5} more` : ''}`;
}

/** Patterns that reach nothing named one by one in the warnings of `sessions.open`; the rest are counted. */
const MAX_DEAD_PATTERN_WARNINGS = 10;

/**
 * What a grant names that reaches nothing, as warnings for `sessions.open`: toolset ids with no
 * toolset registered (yet), and allow or deny patterns that match no tool of the granted toolsets.
 */
export function grantWarnings(grant: Grant, registered: Iterable<Toolset>): string[] {
  const granted = new Set(grant.toolsets);
  const present = [...registered].filter((toolset) => granted.has(toolset.id));
  const warnings: string[] = [];
  const missing = grant.toolsets.filter((id) => !present.some((toolset) => toolset.id === id));
  if (missing.length > 0)
    warnings.push(
      `grant.toolsets: no toolset ${missing.map((id) => `'${id}'`).join(', ')} is registered; the session will see ${missing.length > 1 ? 'them' : 'it'} once ${missing.length > 1 ? 'they are' : 'it is'}.`,
    );
  const names = present.flatMap((toolset) => namesOf(toolset));
  const dead: string[] = [];
  for (const key of ['allow', 'deny'] as const)
    (grant[key] ?? []).forEach((pattern, index) => {
      const list = new PatternList([pattern]);
      if (!names.some((toolNames) => list.matches(toolNames))) dead.push(`grant.${key}[${index}] '${pattern}'`);
    });
  const how = "(patterns match the original name, '<toolset>/<name>' or the model-facing name, case-sensitively)";
  for (const where of dead.slice(0, MAX_DEAD_PATTERN_WARNINGS))
    warnings.push(`${where} matches no tool of the granted toolsets ${how}.`);
  if (dead.length > MAX_DEAD_PATTERN_WARNINGS)
    warnings.push(
      `${dead.length - MAX_DEAD_PATTERN_WARNINGS} more grant patterns match no tool of the granted toolsets.`,
    );
  return warnings;
}
