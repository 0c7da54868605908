import type { SessionTool, SessionToolTable, ToolSearchConfig } from '@toolsearch/catalog';
import { closestNames, searchEngineFor, type EngineSource, type SearchEngine } from '@toolsearch/search';
import type { BridgeError } from './bridge-error';
import { MAX_JSON_DEPTH } from './json-depth';

/**
 * Everything a bridge handler needs about one session: its tools (only what its grant allows),
 * its settings, and the search engine of its catalog. Handlers read it and never change it.
 */
export interface BridgeSession {
  readonly table: SessionToolTable;
  readonly config: ToolSearchConfig;
  /**
   * The search engine of the session's catalog, looked up on each read where the session was
   * given an `EngineStore` (the session never holds it: the store bounds engines' memory).
   */
  readonly engine: SearchEngine;
  /** How deep JSON text inside the model's arguments may nest before the bridge parses it. */
  readonly maxJsonDepth: number;
  /**
   * Tools kept from this session by the daemon's vetting, by folded model-facing name (and original
   * name): a call of one is refused with this error rather than "unknown tool".
   */
  readonly withheld: ReadonlyMap<string, BridgeError>;
}

/** The engines of one-shot callers: held as long as the catalog array is (`searchEngineFor`). */
const PER_CATALOG: EngineSource = { engineFor: (catalog) => searchEngineFor(catalog) };

/**
 * Binds a session's tool table (from assembly) to the shared search engine of its catalog.
 * `maxJsonDepth` (default `MAX_JSON_DEPTH`) bounds JSON text the handlers parse from arguments.
 * `engines` is where the engine comes from (a serving process passes its `EngineStore`, and
 * `owner`, the tenant a rebuilt engine is counted to); by default the engine is held as long as
 * the table is. `background: true` (a serving process) has the engine encode its tools for the
 * request encoder in slices meanwhile, so no search waits for it (`SearchEngine.prepareEncoder`);
 * a one-shot caller (the CLI) leaves it to the first doubtful answer.
 */
export function createBridgeSession(
  table: SessionToolTable,
  config: ToolSearchConfig,
  options: {
    maxJsonDepth?: number;
    withheld?: ReadonlyMap<string, BridgeError>;
    background?: boolean;
    engines?: EngineSource;
    owner?: string;
  } = {},
): BridgeSession {
  const engines = options.engines ?? PER_CATALOG;
  const owner = options.owner ?? '';
  const engine = engines.engineFor(table.deferred, owner);
  if (options.background === true) engine.prepareEncoder();
  return {
    table,
    config,
    get engine() {
      return engines.engineFor(table.deferred, owner);
    },
    maxJsonDepth: options.maxJsonDepth ?? MAX_JSON_DEPTH,
    withheld: options.withheld ?? new Map(),
  };
}

/** The refusal of a withheld tool (see `BridgeSession.withheld`), if the name is one. */
export function withheldError(session: BridgeSession, name: string): BridgeError | undefined {
  return session.withheld.size === 0 ? undefined : session.withheld.get(foldName(name));
}

/** Folds case, `-` and spaces the way models mistype names: `Read-File` → `read_file`. */
export function foldName(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[-\s]+/g, '_');
}

/**
 * "Did you mean" candidates for a name the session lacks: tool names that end with `__<name>` or
 * whose original name is `name`; failing those, the names within a few edits of it (a typo:
 * `filesytem__read_file` → `filesystem__read_file`), nearest first.
 */
export function similarNames(session: BridgeSession, name: string, max = 5): string[] {
  const folded = foldName(name);
  if (folded === '') return [];
  const found: string[] = [];
  for (const tool of session.table.byName.values()) {
    const lower = tool.name.toLowerCase();
    if (lower === folded || lower.endsWith(`__${folded}`) || foldName(tool.originalName) === folded)
      found.push(tool.name);
  }
  if (found.length > 0) return found.sort().slice(0, max);
  const byFolded = new Map<string, string>();
  for (const tool of session.table.byName.values()) byFolded.set(foldName(tool.name), tool.name);
  return closestNames(byFolded.keys(), folded, max).map((key) => byFolded.get(key) ?? key);
}

/** A name the session does not have but that is a known core tool name: offered elsewhere, not here. */
export function isKnownElsewhere(session: BridgeSession, name: string): boolean {
  const folded = foldName(name);
  return session.config.core_tools.has(folded) || session.config.defer.has(folded);
}

/** Looks a model-facing name up in the session, tolerating case and `-`/space folding. */
export function lookupTool(session: BridgeSession, name: string): SessionTool | undefined {
  const exact = session.table.byName.get(name.trim());
  if (exact !== undefined) return exact;
  const folded = foldName(name);
  for (const tool of session.table.byName.values()) if (foldName(tool.name) === folded) return tool;
  return undefined;
}
