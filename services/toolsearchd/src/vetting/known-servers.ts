import { createHash, type Hash } from 'node:crypto';
import { toolsetLabel, type Toolset } from '@toolsearch/catalog';

/** What a scan of one toolset knows of its tenant's servers, and a key that names exactly that. */
export interface ServerContext {
  /**
   * Lower-cased labels of the toolset and the tenant's other toolsets (references point at these).
   * Answered from the kept list: valid until the next `of` (a vetting scans synchronously).
   */
  readonly labels: Pick<ReadonlySet<string>, 'has'>;
  /** The tenant's other toolsets (whose tool names a look-alike may imitate). */
  readonly others: readonly Toolset[];
  /** sha256 of the tenant, the toolset's label and the others' labels in order (a cache key). */
  readonly key: string;
}

/** The labels of a list of toolsets, folded into a running hash as the list grows. */
interface LabelList {
  readonly tenant: string;
  readonly toolsets: Toolset[];
  readonly labels: Set<string>;
  readonly hash: Hash;
}

/**
 * The server context of each vetting. A catalog registered toolset by toolset (a config catalog:
 * 870 toolsets for the Toucan one) makes each vetting name every toolset stored before it; listing,
 * sorting and joining them all again each time took 250 ms of that registration, and the 17 KB
 * key that came out was hashed again for every tool's cache lookup (400 ms more). The last list is
 * kept and extended when the tenant's toolsets are that list plus new ones (the registry's map
 * keeps insertion order; a replaced toolset is a new object, so it starts a new list).
 */
export class KnownServers {
  /** Lower-cased labels by toolset object (stored toolsets are frozen values). */
  readonly #labels = new WeakMap<Toolset, string>();
  #last: LabelList | undefined;

  of(tenant: string, raw: Toolset, current: ReadonlyMap<string, { toolset: Toolset }>): ServerContext {
    const toolsets: Toolset[] = [];
    let replaces = false;
    for (const { toolset } of current.values()) {
      if (toolset.id === raw.id) replaces = true;
      else toolsets.push(toolset);
    }
    // A put over a stored toolset leaves a hole in the list: counted afresh, and not kept.
    const list = replaces ? newList(tenant) : this.#reusable(tenant, toolsets);
    for (let index = list.toolsets.length; index < toolsets.length; index += 1) {
      const toolset = toolsets[index] as Toolset;
      const label = this.#label(toolset);
      list.toolsets.push(toolset);
      list.labels.add(label);
      list.hash.update(`\u0000${label.length}:${label}`);
    }
    if (!replaces) this.#last = list;
    const own = this.#label(raw);
    const labels = list.labels;
    return {
      // Not a copy with `own` added: that copied 380,000 labels for the Toucan catalog (70 ms).
      labels: { has: (label) => label === own || labels.has(label) },
      others: toolsets,
      key: list.hash.copy().update(`\u0001${own.length}:${own}`).digest('base64'),
    };
  }

  /** The last list when `toolsets` begins with it (the same objects in the same order), else a new one. */
  #reusable(tenant: string, toolsets: readonly Toolset[]): LabelList {
    const last = this.#last;
    if (last === undefined || last.tenant !== tenant || last.toolsets.length > toolsets.length) return newList(tenant);
    for (let index = 0; index < last.toolsets.length; index += 1)
      if (last.toolsets[index] !== toolsets[index]) return newList(tenant);
    return last;
  }

  #label(toolset: Toolset): string {
    let label = this.#labels.get(toolset);
    if (label === undefined) {
      label = toolsetLabel(toolset).toLowerCase();
      this.#labels.set(toolset, label);
    }
    return label;
  }
}

function newList(tenant: string): LabelList {
  return { tenant, toolsets: [], labels: new Set(), hash: createHash('sha256').update(`${tenant.length}:${tenant}`) };
}
