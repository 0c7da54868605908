import { createHash } from 'node:crypto';
import { FairCache, type ToolSearchConfig, type Toolset } from '@toolsearch/catalog';
import { assembleSession, type Assembly, type AssemblyInput } from './assemble';

/**
 * A content-addressed cache of assemblies, shared by every session that has the same tools,
 * config and model. The key is made of the toolsets' content fingerprints, never of a session id,
 * so a cached surface can never drift from the tool definitions it was built from.
 *
 * Toolsets are treated as immutable values: a changed toolset must be a new object (the registry
 * hands out a new value per version). Each object's fingerprint is computed once.
 */
export class AssemblyCache {
  readonly capacity: number;
  readonly #fingerprints = new WeakMap<Toolset, string>();
  readonly #configKeys = new WeakMap<ToolSearchConfig, string>();
  readonly #entries: FairCache<Assembly>;
  #hits = 0;
  #misses = 0;

  /**
   * `capacity` bounds the assemblies held; `maxTools`, when given, the tools they hold together (an
   * assembly's memory grows with its tools: some 0.4 KiB each, measured on the 6,685-tool union).
   */
  constructor(capacity = 256, options: { maxTools?: number } = {}) {
    this.capacity = Math.max(1, capacity);
    this.#entries = new FairCache(this.capacity, { maxWeight: options.maxTools });
  }

  /**
   * Same as `assembleSession(input)`, answered from the cache when the content was seen before.
   * `owner` (a daemon's tenant) is who a new entry is counted to: when the cache is over a bound,
   * the owner holding the most (assemblies, or tools) gives up its least recently used one
   * (`FairCache`).
   */
  assemble(input: AssemblyInput, owner = ''): Assembly {
    const key = this.#key(input);
    const cached = this.#entries.get(key);
    if (cached !== undefined) {
      this.#hits += 1;
      return cached;
    }
    this.#misses += 1;
    const assembly = assembleSession(input);
    this.#entries.set(key, assembly, owner, assemblyTools(assembly));
    return assembly;
  }

  get stats(): { hits: number; misses: number; size: number; tools: number } {
    return { hits: this.#hits, misses: this.#misses, size: this.#entries.size, tools: this.#entries.weight };
  }

  #fingerprint(toolset: Toolset): string {
    let fingerprint = this.#fingerprints.get(toolset);
    if (fingerprint === undefined) {
      fingerprint = createHash('sha256').update(JSON.stringify(toolset)).digest('hex');
      this.#fingerprints.set(toolset, fingerprint);
    }
    return fingerprint;
  }

  #configKey(config: ToolSearchConfig): string {
    let key = this.#configKeys.get(config);
    if (key === undefined) {
      key = JSON.stringify({
        ...config,
        defer: [...config.defer].sort(),
        core_tools: [...config.core_tools].sort(),
      });
      this.#configKeys.set(config, key);
    }
    return key;
  }

  #key(input: AssemblyInput): string {
    const hash = createHash('sha256');
    for (const fingerprint of input.toolsets.map((toolset) => this.#fingerprint(toolset)).sort())
      hash.update(fingerprint);
    hash.update(this.#configKey(input.config));
    hash.update(
      JSON.stringify([
        input.contextTokens,
        input.encoding ?? '',
        input.format ?? '',
        input.previouslyActive ?? false,
        // Found tools change the surface only when the config keeps some.
        input.config.keep_found > 0 ? (input.found ?? []) : [],
      ]),
    );
    return hash.digest('hex');
  }
}

/** What an assembly weighs in a cache bounded in tools: its tools, and at least 1. */
export function assemblyTools(assembly: Assembly): number {
  return Math.max(1, assembly.table.byName.size);
}
