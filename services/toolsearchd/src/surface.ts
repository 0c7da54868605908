import { createHash } from 'node:crypto';
import { parseToolSearchConfig, ToolsetSchema, type ParsedConfig, type Toolset } from '@toolsearch/catalog';
import { AssemblyCache, FairCache, type Assembly, type ToolFormat } from '@toolsearch/disclosure';
import { createBridgeSession, type BridgeSession } from '@toolsearch/bridge';
import { engineBuiltTools } from '@toolsearch/search';
import { assemblyWeight, engineBuildWeight } from './request-weights';
import { withheldTools } from './vetting/withheld';
import { applyGrant } from './grant';
import type { ToolsetRegistry } from './registry.adapter';
import type { SessionDescriptor } from './session-store.adapter';

/** A session's surface for one request: the assembly and the bridge over the same tools. */
export interface Surface {
  readonly assembly: Assembly;
  readonly bridge: BridgeSession;
  readonly config: ParsedConfig;
}

/**
 * Builds session surfaces from the registry and a session's descriptor. Stateless per session:
 * everything is derived on every call from the tenant's current toolsets, the grant and the
 * settings, through content-addressed caches shared by all sessions.
 */
export class SurfaceBuilder {
  readonly #assemblies = new AssemblyCache(4096);
  // Every cache here is shared by the tenants and fair between them (`FairCache`): a tenant
  // opening sessions with one new setting after another only evicts its own entries.
  readonly #configs = new FairCache<ParsedConfig>(1024);
  readonly #cores = new FairCache<Toolset>(1024);
  readonly #env: Readonly<Record<string, string | undefined>>;
  /** `limits.maxJsonDepth`, for JSON text the bridge parses from a model's arguments. */
  readonly #maxJsonDepth: number | undefined;
  /**
   * The last surface per descriptor and format, valid while the tenant's registry generation is
   * unchanged. It cannot drift: any toolset change bumps the generation and forces a rebuild
   * (which the content-addressed caches below mostly answer).
   */
  readonly #recent = new WeakMap<SessionDescriptor, Map<string, { generation: number; surface: Surface }>>();
  /**
   * Surfaces shared by the sessions of a tenant that have the same settings (grant, config,
   * model, core tools, activation, found tools), per registry generation: a toolset change re-assembles 20,000
   * such sessions by building one surface, not 20,000 copies for the collector to sweep.
   */
  readonly #shared = new FairCache<Surface>(4096);
  /** Per descriptor: the digest of the settings its surface depends on. */
  readonly #settings = new WeakMap<SessionDescriptor, string>();
  /** Charges a tenant for work its request turned out to cost (the quotas' `charge`). */
  readonly #charge: ((tenant: string, weight: number) => void) | undefined;

  constructor(
    env: Readonly<Record<string, string | undefined>> = {},
    options: { maxJsonDepth?: number; charge?: (tenant: string, weight: number) => void } = {},
  ) {
    this.#env = env;
    this.#maxJsonDepth = options.maxJsonDepth;
    this.#charge = options.charge;
  }

  /** A session's parsed config; `tenant` is who a new cache entry counts to. */
  config(raw: unknown, tenant = ''): ParsedConfig {
    return this.#configs.getOrMake(JSON.stringify(raw ?? null), tenant, () =>
      parseToolSearchConfig(raw, { enableToolSearch: this.#env['ENABLE_TOOL_SEARCH'] }),
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
    let byFormat = this.#recent.get(descriptor);
    const hit = byFormat?.get(format);
    if (hit !== undefined && hit.generation === generation) return hit.surface;
    const key = `${descriptor.tenant}\u0000${generation}\u0000${format}\u0000${this.#settingsOf(descriptor)}`;
    const surface = this.#shared.getOrMake(key, descriptor.tenant, () =>
      this.#charged(descriptor.tenant, charged, () => this.#build(descriptor, registry, format)),
    );
    if (byFormat === undefined) {
      byFormat = new Map();
      this.#recent.set(descriptor, byFormat);
    }
    byFormat.set(format, { generation, surface });
    return surface;
  }

  #settingsOf(descriptor: SessionDescriptor): string {
    let digest = this.#settings.get(descriptor);
    if (digest === undefined) {
      const { grant, ancestorAllows, config, model, coreTools, activated, found } = descriptor;
      digest = createHash('sha256')
        .update(JSON.stringify([grant, ancestorAllows, config ?? null, model, coreTools, activated, found]))
        .digest('base64');
      this.#settings.set(descriptor, digest);
    }
    return digest;
  }

  /**
   * Builds a surface and charges its tenant for what the content-addressed caches did not hold: an
   * assembly (`assemblyWeight`) and a search engine (`engineBuildWeight`). Without it, a tenant
   * asking for one model size, format or found tool after another had the daemon assemble (and
   * once index) its whole catalog for 1 unit each.
   */
  #charged(tenant: string, what: 'all' | 'engines', build: () => Surface): Surface {
    const misses = this.#assemblies.stats.misses;
    const indexed = engineBuiltTools();
    const surface = build();
    const assembled = what === 'all' && this.#assemblies.stats.misses > misses;
    const weight =
      (assembled ? assemblyWeight(surface.assembly.table.byName.size) : 0) +
      engineBuildWeight(engineBuiltTools() - indexed);
    if (weight > 0) this.#charge?.(tenant, weight);
    return surface;
  }

  #build(descriptor: SessionDescriptor, registry: ToolsetRegistry, format: ToolFormat): Surface {
    const config = this.config(descriptor.config, descriptor.tenant);
    const granted = applyGrant(
      [...registry.toolsets(descriptor.tenant).values()].map((entry) => entry.toolset),
      descriptor.grant,
      descriptor.ancestorAllows,
    );
    const toolsets =
      descriptor.coreTools.length > 0
        ? [
            this.#cores.getOrMake(JSON.stringify(descriptor.coreTools), descriptor.tenant, () =>
              Object.freeze(
                ToolsetSchema.parse({ id: 'core', kind: 'core', label: 'core', tools: descriptor.coreTools }),
              ),
            ),
            ...granted,
          ]
        : granted;
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
      background: true,
    });
    return { assembly, bridge, config };
  }
}
