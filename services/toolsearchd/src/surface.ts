import { createHash } from 'node:crypto';
import { FairCache, parseToolSearchConfig, ToolsetSchema, type ParsedConfig, type Toolset } from '@toolsearch/catalog';
import { AssemblyCache, assemblyTools, type Assembly, type ToolFormat } from '@toolsearch/disclosure';
import { createBridgeSession, type BridgeSession } from '@toolsearch/bridge';
import { EngineStore } from '@toolsearch/search';
import { assemblyWeight, engineBuildWeight } from './request-weights';
import { withheldTools } from './vetting/withheld';
import { applyGrant, type NarrowedToolsets } from './grant';
import type { ToolsetRegistry } from './registry.adapter';
import type { SessionDescriptor } from './session-store.adapter';

/** A session's surface for one request: the assembly and the bridge over the same tools. */
export interface Surface {
  readonly assembly: Assembly;
  readonly bridge: BridgeSession;
  readonly config: ParsedConfig;
}

/** How much of each kind of work a replica keeps built (`limits` in the daemon's config). */
export interface SurfaceLimits {
  /** Tools the cached assemblies hold together (and, separately, the cached surfaces). */
  readonly maxAssembledTools: number;
  /** Tools the held search engines index together. */
  readonly maxIndexedTools: number;
}

/** Bytes of JSON the parsed-config cache, and the core-toolset cache, may hold (each). */
const SETTINGS_CACHE_BYTES = 32 * 1024 * 1024;

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64');

const DEFAULT_LIMITS: SurfaceLimits = { maxAssembledTools: 200_000, maxIndexedTools: 120_000 };

/**
 * Builds session surfaces from the registry and a session's descriptor. Stateless per session:
 * everything is derived on every call from the tenant's current toolsets, the grant and the
 * settings, through content-addressed caches shared by all sessions.
 *
 * Every cache here is shared by the tenants, bounded and fair between them (`FairCache`): a
 * tenant opening sessions with one new setting or grant after another only evicts its own
 * entries. What grows with a catalog — assemblies, surfaces, search engines — is bounded in tools
 * as well as in entries, and nothing per session holds any of it, so the memory a replica spends on
 * them is bounded whatever the tenants' sessions ask for (docs/security.md, "Memory per tenant").
 */
export class SurfaceBuilder {
  readonly #assemblies: AssemblyCache;
  readonly #engines: EngineStore;
  // Parsed configs and core toolsets, keyed by a digest of their JSON and weighed by its bytes: a
  // session may bring up to `limits.maxSessionBytes` of them, so 1,024 entries alone bounded little.
  readonly #configs = new FairCache<ParsedConfig>(1024, { maxWeight: SETTINGS_CACHE_BYTES });
  readonly #cores = new FairCache<Toolset>(1024, { maxWeight: SETTINGS_CACHE_BYTES });
  /** Toolsets narrowed by a grant, per toolset value and grant (`applyGrant`). */
  readonly #narrowed: FairCache<Toolset>;
  /** A number per toolset value, for `#narrowed`'s keys. */
  readonly #toolsetIds = new WeakMap<Toolset, number>();
  #nextToolsetId = 0;
  readonly #env: Readonly<Record<string, string | undefined>>;
  /** `limits.maxJsonDepth`, for JSON text the bridge parses from a model's arguments. */
  readonly #maxJsonDepth: number | undefined;
  /**
   * Surfaces shared by the sessions of a tenant that have the same settings (grant, config,
   * model, core tools, activation, found tools), per registry generation: a toolset change
   * re-assembles 20,000 such sessions by building one surface, not 20,000 copies for the collector
   * to sweep. A surface cannot drift: any toolset change bumps the generation in the key.
   */
  readonly #shared: FairCache<Surface>;
  /** Per descriptor: the digest of the settings its surface depends on. */
  readonly #settings = new WeakMap<SessionDescriptor, string>();
  /** Charges a tenant for work its request turned out to cost (the quotas' `charge`). */
  readonly #charge: ((tenant: string, weight: number) => void) | undefined;

  constructor(
    env: Readonly<Record<string, string | undefined>> = {},
    options: {
      maxJsonDepth?: number;
      charge?: (tenant: string, weight: number) => void;
      limits?: Partial<SurfaceLimits>;
    } = {},
  ) {
    const limits = { ...DEFAULT_LIMITS, ...options.limits };
    this.#env = env;
    this.#maxJsonDepth = options.maxJsonDepth;
    this.#charge = options.charge;
    this.#assemblies = new AssemblyCache(4096, { maxTools: limits.maxAssembledTools });
    this.#shared = new FairCache<Surface>(4096, { maxWeight: limits.maxAssembledTools });
    this.#narrowed = new FairCache<Toolset>(4096, { maxWeight: limits.maxAssembledTools });
    // A search engine is built (or rebuilt, after the store gave it up) for the tenant whose
    // catalog it indexes, whichever request or fan-out needed it: that tenant pays for it.
    this.#engines = new EngineStore({
      maxTools: limits.maxIndexedTools,
      background: true,
      onBuild: (tenant, tools) => this.#charge?.(tenant, engineBuildWeight(tools)),
    });
  }

  /**
   * What the replica holds now (for tests and metrics): cached assemblies' tools, held engines'
   * tools (each engine's overhead included) and engines, and the engines built so far.
   */
  get held(): { assembledTools: number; indexedTools: number; engines: number; engineBuilds: number } {
    const engines = this.#engines.stats;
    return {
      assembledTools: this.#assemblies.stats.tools,
      indexedTools: engines.tools,
      engines: engines.engines,
      engineBuilds: engines.builds,
    };
  }

  /** A session's parsed config; `tenant` is who a new cache entry counts to. */
  config(raw: unknown, tenant = ''): ParsedConfig {
    const json = JSON.stringify(raw ?? null);
    return this.#configs.getOrMake(
      sha256(json),
      tenant,
      () => parseToolSearchConfig(raw, { enableToolSearch: this.#env['ENABLE_TOOL_SEARCH'] }),
      () => json.length,
    );
  }

  /**
   * The surface for a tenant's own request: what the caches did not hold — an assembly, a search
   * engine — is charged to the tenant (`#charged`).
   */
  forRequest(descriptor: SessionDescriptor, registry: ToolsetRegistry, format: ToolFormat = 'openai'): Surface {
    return this.#surface(descriptor, registry, format, 'all');
  }

  /**
   * The surface the daemon builds on its own account (the fan-out after a toolset change): only a
   * new search engine is charged to the session's tenant — a toolset put is what made its content
   * new — not the assemblies of its many sessions.
   */
  build(descriptor: SessionDescriptor, registry: ToolsetRegistry, format: ToolFormat = 'openai'): Surface {
    return this.#surface(descriptor, registry, format, 'engines');
  }

  #surface(
    descriptor: SessionDescriptor,
    registry: ToolsetRegistry,
    format: ToolFormat,
    charged: 'all' | 'engines',
  ): Surface {
    const generation = registry.generation(descriptor.tenant);
    const key = `${descriptor.tenant}\u0000${generation}\u0000${format}\u0000${this.#settingsOf(descriptor)}`;
    return this.#shared.getOrMake(
      key,
      descriptor.tenant,
      () => this.#charged(descriptor.tenant, charged, () => this.#build(descriptor, registry, format)),
      (surface) => assemblyTools(surface.assembly),
    );
  }

  #settingsOf(descriptor: SessionDescriptor): string {
    let digest = this.#settings.get(descriptor);
    if (digest === undefined) {
      const { grant, ancestorAllows, config, model, coreTools, activated, found } = descriptor;
      digest = sha256(JSON.stringify([grant, ancestorAllows, config ?? null, model, coreTools, activated, found]));
      this.#settings.set(descriptor, digest);
    }
    return digest;
  }

  /**
   * Builds a surface and charges its tenant for an assembly the content-addressed cache did not
   * hold (`assemblyWeight`; a search engine is charged when the store builds it). Without it, a
   * tenant asking for one model size, format or found tool after another had the daemon assemble
   * its whole catalog for 1 unit each.
   */
  #charged(tenant: string, what: 'all' | 'engines', build: () => Surface): Surface {
    const misses = this.#assemblies.stats.misses;
    const surface = build();
    if (what === 'all' && this.#assemblies.stats.misses > misses)
      this.#charge?.(tenant, assemblyWeight(surface.assembly.table.byName.size));
    return surface;
  }

  /** The session's core tools as a toolset, shared by the sessions that bring the same ones. */
  #coreToolset(descriptor: SessionDescriptor): Toolset {
    const json = JSON.stringify(descriptor.coreTools);
    return this.#cores.getOrMake(
      sha256(json),
      descriptor.tenant,
      () =>
        Object.freeze(ToolsetSchema.parse({ id: 'core', kind: 'core', label: 'core', tools: descriptor.coreTools })),
      () => json.length,
    );
  }

  /** Where `applyGrant` keeps what it narrows for `tenant`: `#narrowed`, counted to the tenant. */
  #keptFor(tenant: string): NarrowedToolsets {
    return {
      getOrMake: (toolset, grantKey, make) => {
        let id = this.#toolsetIds.get(toolset);
        if (id === undefined) {
          id = this.#nextToolsetId += 1;
          this.#toolsetIds.set(toolset, id);
        }
        return this.#narrowed.getOrMake(`${id}\u0000${grantKey}`, tenant, make, (narrowed) =>
          Math.max(1, narrowed.tools.length),
        );
      },
    };
  }

  #build(descriptor: SessionDescriptor, registry: ToolsetRegistry, format: ToolFormat): Surface {
    const config = this.config(descriptor.config, descriptor.tenant);
    const granted = applyGrant(
      [...registry.toolsets(descriptor.tenant).values()].map((entry) => entry.toolset),
      descriptor.grant,
      descriptor.ancestorAllows,
      this.#keptFor(descriptor.tenant),
    );
    const toolsets = descriptor.coreTools.length > 0 ? [this.#coreToolset(descriptor), ...granted] : granted;
    const assembly = this.#assemblies.assemble(
      {
        toolsets,
        config: config.config,
        contextTokens: descriptor.model.contextLength,
        encoding: descriptor.model.encoding ?? 'o200k_base',
        format,
        previouslyActive: descriptor.activated,
        found: descriptor.found,
      },
      descriptor.tenant,
    );
    const bridge = createBridgeSession(assembly.table, config.config, {
      ...(this.#maxJsonDepth !== undefined ? { maxJsonDepth: this.#maxJsonDepth } : {}),
      withheld: withheldTools(granted),
      // The store has every engine it builds or takes back encode in the background.
      engines: this.#engines,
      owner: descriptor.tenant,
    });
    return { assembly, bridge, config };
  }
}
