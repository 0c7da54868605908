import { createHash } from 'node:crypto';
import type { SessionTool } from '@toolsearch/catalog';
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

/**
 * The search engine of a catalog, shared by every session whose catalog has the same content:
 * built once per content (a changed toolset is new content and a new engine), whatever array or
 * assembly it came from. Fingerprinting 6,041 tools costs a few milliseconds, once per array (the
 * first time a toolset version is seen, some 20 ms more); building their engine ~150 ms.
 */
export function searchEngineFor(catalog: readonly SessionTool[]): SearchEngine {
  const known = byCatalog.get(catalog);
  if (known !== undefined) return known;
  const key = fingerprint(catalog);
  let engine = byContent.get(key)?.deref();
  if (engine === undefined) {
    const documents = catalog.map((tool) => toSearchDocument(tool));
    engine = new SearchEngine(documents);
    builtTools += documents.length;
    byContent.set(key, new WeakRef(engine));
    forgotten.register(engine, key);
  }
  byCatalog.set(catalog, engine);
  return engine;
}

/**
 * Tools indexed by the engines `searchEngineFor` built so far in this process: a caller that
 * reads it before and after a synchronous step learns what that step cost (the daemon charges
 * the tenant whose request built an engine).
 */
export function engineBuiltTools(): number {
  return builtTools;
}
