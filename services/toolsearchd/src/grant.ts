import { compileGlob, type Toolset } from '@toolsearch/catalog';
import type { Grant } from '@toolsearch/proto';

/**
 * Whether a child's grant stays within its parent's: every toolset of the child is the parent's,
 * and when the parent narrows by `allow` patterns the child uses only patterns the parent has.
 * Returns the reason when it does not.
 */
export function exceedsParent(child: Grant, parent: Grant): string | undefined {
  const parentToolsets = new Set(parent.toolsets);
  const extra = child.toolsets.filter((id) => !parentToolsets.has(id));
  if (extra.length > 0) return `the parent session does not have toolset(s) ${extra.join(', ')}`;
  if (parent.allow !== undefined) {
    if (child.allow === undefined) return undefined;
    const parentAllow = new Set(parent.allow);
    const wider = child.allow.filter((pattern) => !parentAllow.has(pattern));
    if (wider.length > 0) return `the parent session does not allow ${wider.join(', ')}`;
  }
  return undefined;
}

/** A child's effective grant: its own toolsets, the parent's allow list if it gave none, both deny lists. */
export function narrowGrant(child: Grant, parent: Grant): Grant {
  const allow = child.allow ?? parent.allow;
  const deny = [...new Set([...(parent.deny ?? []), ...(child.deny ?? [])])];
  return { toolsets: child.toolsets, ...(allow !== undefined ? { allow } : {}), ...(deny.length > 0 ? { deny } : {}) };
}

const filtered = new WeakMap<Toolset, Map<string, Toolset>>();

/**
 * The toolsets a grant reaches: only granted toolset ids, and within them only tools whose name
 * (original, or `<toolset id>/<name>`) passes the allow and deny patterns. Results are memoised per
 * toolset value, so equal grants over equal toolsets give the same objects (and cache hits).
 */
export function applyGrant(toolsets: Iterable<Toolset>, grant: Grant): Toolset[] {
  const ids = new Set(grant.toolsets);
  // Case-sensitive `*` wildcards, matched without regular expressions (a grant is tenant text).
  const allow = grant.allow?.map((pattern) => compileGlob(pattern));
  const deny = grant.deny?.map((pattern) => compileGlob(pattern)) ?? [];
  const key = JSON.stringify([grant.allow ?? null, grant.deny ?? []]);
  const out: Toolset[] = [];
  for (const toolset of toolsets) {
    if (!ids.has(toolset.id)) continue;
    if (allow === undefined && deny.length === 0) {
      out.push(toolset);
      continue;
    }
    let byKey = filtered.get(toolset);
    if (byKey === undefined) {
      byKey = new Map();
      filtered.set(toolset, byKey);
    }
    let narrowed = byKey.get(key);
    if (narrowed === undefined) {
      const passes = (name: string) => {
        const names = [name, `${toolset.id}/${name}`];
        if (allow !== undefined && !allow.some((glob) => names.some((n) => glob.matches(n)))) return false;
        return !deny.some((glob) => names.some((n) => glob.matches(n)));
      };
      narrowed = Object.freeze({ ...toolset, tools: toolset.tools.filter((tool) => passes(tool.name)) });
      byKey.set(key, narrowed);
    }
    out.push(narrowed);
  }
  return out;
}
