import { createHash } from 'node:crypto';
import { FairCache, type SessionTool } from '@toolsearch/catalog';
import { SearchEngine } from './search-engine';
import { toSearchDocument } from './search-document';

/** Per catalog array: its engine (the fast path: an assembly's table asks again and again). */
const byCatalog = new WeakMap<readonly SessionTool[], SearchEngine>();
/**
 * Per content fingerprint: the engine, held weakly. Catalog arrays with equal content (the same
 * tools in the same order, as assemblies of one grant for different models, formats or found tools
 * have) share one engine; the last session that holds it lets it go.
 */
const byContent = new Map<string, WeakRef<SearchEngine>>();
const forgotten = new FinalizationRegistry<string>((key) => {
  if (byContent.get(key)?.deref() === undefined) byContent.delete(key);
});
let builtTools = 0;

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64');

/**
 * Per tool definition: a digest of what the index reads of it. Definitions are immutable values
 * shared by every assembly of a toolset version (as `AssemblyCache` assumes of toolsets), so each
 * is read once; hashing a whole catalog's text on every assembly cost 20 – 30 ms at 6,041 tools.
 */
const definitionDigests = new WeakMap<SessionTool['definition'], string>();

function definitionDigest(tool: SessionTool): string {
  let digest = definitionDigests.get(tool.definition);
  if (digest === undefined) {
    const document = toSearchDocument(tool);
    digest = sha256(JSON.stringify([document.description, document.parameters, document.parameterDocs, document.tags]));
    definitionDigests.set(tool.definition, digest);
  }
  return digest;
}

/** A digest of what the index reads of each tool (`toSearchDocument`), in order. */
function fingerprint(catalog: readonly SessionTool[]): string {
  // A source's description is the same text on each of its tools: digested once per catalog.
  const sources = new Map<string, string>();
  const parts: string[] = [];
  for (const tool of catalog) {
    let source = sources.get(tool.sourceDescription);
    if (source === undefined) {
      source = sha256(tool.sourceDescription);
      sources.set(tool.sourceDescription, source);
    }
    parts.push(
      JSON.stringify([tool.name, tool.originalName, tool.label, tool.toolset, source, definitionDigest(tool)]),
    );
  }
  return sha256(parts.join('\n'));
}

/** Per catalog array: its content key (`fingerprint`), computed once per array. */
const contentKeys = new WeakMap<readonly SessionTool[], string>();

function contentKey(catalog: readonly SessionTool[]): string {
  let key = contentKeys.get(catalog);
  if (key === undefined) {
    key = fingerprint(catalog);
    contentKeys.set(catalog, key);
  }
  return key;
}

/** The live engine of this content if anything still holds one, else a new one (counted). */
function liveOrBuilt(key: string, catalog: readonly SessionTool[]): { engine: SearchEngine; built: number } {
  const live = byContent.get(key)?.deref();
  if (live !== undefined) return { engine: live, built: 0 };
  const documents = catalog.map((tool) => toSearchDocument(tool));
  const engine = new SearchEngine(documents);
  builtTools += documents.length;
  byContent.set(key, new WeakRef(engine));
  forgotten.register(engine, key);
  return { engine, built: documents.length };
}

/**
 * The search engine of a catalog, shared by every session whose catalog has the same content:
 * built once per content (a changed toolset is new content and a new engine), whatever array or
 * assembly it came from, and held as long as the catalog array is. Fingerprinting 6,041 tools
 * costs a few milliseconds, once per array (the first time a toolset version is seen, some 20 ms
 * more); building their engine ~150 ms. For one-shot callers (the CLI, tests); a serving process
 * bounds its engines' memory with an `EngineStore`.
 */
export function searchEngineFor(catalog: readonly SessionTool[]): SearchEngine {
  const known = byCatalog.get(catalog);
  if (known !== undefined) return known;
  const { engine } = liveOrBuilt(contentKey(catalog), catalog);
  byCatalog.set(catalog, engine);
  return engine;
}

/** Where a bridge session gets its catalog's engine (`searchEngineFor`, or an `EngineStore`). */
export interface EngineSource {
  engineFor(catalog: readonly SessionTool[], owner: string): SearchEngine;
}

/**
 * What an engine weighs beyond its tools, in tools: an engine of one tool takes some 11 KiB, a tool
 * some 1.3 KiB (heap and array buffers, the request encoder's vectors included), so a tenant cannot
 * fit thousands of one-tool engines into a bound counted in tools.
 */
const ENGINE_OVERHEAD_TOOLS = 8;

/**
 * The search engines of a serving process, bounded in the tools they index together and fair
 * between owners (tenants): when over `maxTools`, the owner whose engines index the most gives up
 * its least recently used one (`FairCache`), so one tenant's many distinct grants can neither
 * exhaust the replica's memory nor push another tenant's engines out. Each owner's most recently
 * used engine is kept whatever the bound (`keepNewest`): tenants that each search one large
 * catalog never take turns rebuilding them, and the store may hold up to one engine per tenant
 * beyond `maxTools`. Only the store holds engines: sessions look theirs up by content on each use,
 * so an engine given up is rebuilt on the next search that needs it (reported to `onBuild` again)
 * unless something still holds it. With `background`, a built engine encodes its tools for the
 * request encoder in slices at once (`SearchEngine.prepareEncoder`), as a new session's would.
 */
export class EngineStore implements EngineSource {
  readonly #engines: FairCache<SearchEngine>;
  readonly #onBuild: ((owner: string, tools: number) => void) | undefined;
  readonly #background: boolean;
  #builds = 0;

  constructor(options: { maxTools: number; onBuild?: (owner: string, tools: number) => void; background?: boolean }) {
    this.#engines = new FairCache(4096, { maxWeight: options.maxTools, keepNewest: true });
    this.#onBuild = options.onBuild;
    this.#background = options.background ?? false;
  }

  /** The engine of `catalog`, built (and reported to `onBuild` as `owner`'s) when not held. */
  engineFor(catalog: readonly SessionTool[], owner = ''): SearchEngine {
    const key = contentKey(catalog);
    return this.#engines.getOrMake(
      key,
      owner,
      () => {
        const { engine, built } = liveOrBuilt(key, catalog);
        if (this.#background) engine.prepareEncoder();
        if (built > 0) {
          this.#builds += 1;
          this.#onBuild?.(owner, built);
        }
        return engine;
      },
      (engine) => engine.size + ENGINE_OVERHEAD_TOOLS,
    );
  }

  /** The engines held, the tools they index together (with each engine's overhead), and the builds so far. */
  get stats(): { engines: number; tools: number; builds: number } {
    return { engines: this.#engines.size, tools: this.#engines.weight, builds: this.#builds };
  }

  /** The tools (with each engine's overhead) indexed by the engines `owner` built and the store still holds. */
  toolsHeldBy(owner: string): number {
    return this.#engines.weightHeldBy(owner);
  }
}

/**
 * Tools indexed by the engines built so far in this process (by `searchEngineFor` and every
 * `EngineStore`): a caller that reads it before and after a synchronous step learns what that
 * step cost.
 */
export function engineBuiltTools(): number {
  return builtTools;
}
