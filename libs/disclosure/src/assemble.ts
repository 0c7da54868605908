import { createHash } from 'node:crypto';
import {
  ASSUMED_CONTEXT_TOKENS,
  buildSessionTools,
  type SessionTool,
  type SessionToolTable,
  type ToolSearchConfig,
  type Toolset,
} from '@toolsearch/catalog';
import {
  DEFAULT_ENCODING,
  tokenCounter,
  type CountBatch,
  type EncodingName,
  type TokenCounter,
} from '@toolsearch/tokens';
import { bridgeTools, type NeutralTool } from './bridge-schemas';
import { formatTools, type FormattedTool, type ToolFormat } from './formats';
import { buildListing, listingBudget, type Listing, type ListingForm } from './listing';

/** Internal safety caps on the bridge's array arguments (not configuration; seed 000). */
export const BRIDGE_LIMITS = { maxQueries: 7, maxNames: 10, maxCalls: 16 } as const;

export type Tier = 0 | 1 | 2;

export interface AssemblyInput {
  /** Every toolset in the session's grant (core tools as a `core` toolset). */
  readonly toolsets: readonly Toolset[];
  readonly config: ToolSearchConfig;
  /** The model's context window in tokens; 0 when unknown. */
  readonly contextTokens: number;
  readonly encoding?: EncodingName;
  readonly format?: ToolFormat;
  /**
   * Budget-gated mode only: whether the bridge was already active for this session. Once active it
   * stays active, even if the deferrable schemas later shrink below the threshold (seed 003).
   */
  readonly previouslyActive?: boolean;
  /**
   * Model-facing names of tools the session found (described or called), oldest first. With
   * `keep_found: N`, the newest N of them that are deferrable are loaded directly while the bridge
   * is active; names the session no longer has are skipped.
   */
  readonly found?: readonly string[];
}

/** What the model sees for one turn, and the numbers behind the decision. */
export interface AssemblyResult {
  /** Whether the bridge replaced the deferrable tools this turn. */
  readonly activated: boolean;
  readonly tier: Tier;
  readonly listing_form: ListingForm;
  /** The activation mode that decided: off, on, or budget (auto:N). */
  readonly mode: ToolSearchConfig['activation']['kind'];
  /** Tools in the model-visible array: the direct tools, then the bridge when activated. */
  readonly tools: FormattedTool[];
  readonly format: ToolFormat;
  readonly encoding: EncodingName;
  readonly visible_count: number;
  /** Tools behind the bridge this turn (0 when not activated). */
  readonly deferred_count: number;
  /** Tools that could be deferred, activated or not (kept found tools included). */
  readonly deferrable_count: number;
  /** Found tools loaded directly this turn (`keep_found`), oldest first; empty when not activated. */
  readonly kept: readonly string[];
  /**
   * Exact tokens of the deferrable tools' schemas (each as compact JSON), what deferral saves;
   * tools kept direct by `keep_found` are not counted, since the model pays for them.
   */
  readonly deferred_tokens: number;
  readonly listing_tokens: number;
  readonly budget_tokens: number;
  /** Exact tokens of the tools in `tools` (each as compact JSON), what the model pays per turn. */
  readonly tools_tokens: number;
  /** The listing embedded in `tool_search`'s description, if any. */
  readonly listing: string | null;
  /** Sources shown as a one-line summary in a mixed or groups listing. */
  readonly collapsed: readonly string[];
  /** sha256 of the tool array's bytes: equal hashes mean an identical model-visible surface. */
  readonly hash: string;
}

/** The assembled surface together with the session's classified tools (for the bridge handlers). */
export interface Assembly {
  readonly result: AssemblyResult;
  readonly table: SessionToolTable;
}

function neutral(tool: SessionTool): NeutralTool {
  const { definition } = tool;
  return {
    name: tool.name,
    description: definition.description,
    inputSchema: definition.inputSchema,
    ...(definition.outputSchema ? { outputSchema: definition.outputSchema } : {}),
    ...(definition.annotations ? { annotations: definition.annotations } : {}),
  };
}

// Schema token counts per tool definition object; definitions are immutable values once built.
const schemaTokenMemo = new WeakMap<object, Map<string, number>>();

function schemaText(tool: SessionTool): string {
  const { definition } = tool;
  return JSON.stringify({ name: tool.name, description: definition.description, parameters: definition.inputSchema });
}

/**
 * Starts counting the exact tokens of the tools' schemas (each as compact JSON); the returned
 * function gives their sum. Counts not yet known go to one batch: the counter works through each
 * schema while the next is serialised, and through the last ones while the caller goes on.
 */
function startSchemaCount(tools: readonly SessionTool[], counter: TokenCounter): () => number {
  let known = 0;
  const unknown: { byKey: Map<string, number>; key: string }[] = [];
  // Started at the first schema whose count is not known yet: a fully known table needs no thread.
  let batch: CountBatch | undefined;
  try {
    for (const tool of tools) {
      let byKey = schemaTokenMemo.get(tool.definition);
      if (byKey === undefined) {
        byKey = new Map();
        schemaTokenMemo.set(tool.definition, byKey);
      }
      const key = `${counter.encoding}\u0000${tool.name}`;
      const tokens = byKey.get(key);
      if (tokens !== undefined) {
        known += tokens;
        continue;
      }
      batch ??= counter.batch();
      batch.add(schemaText(tool));
      unknown.push({ byKey, key });
    }
  } catch (error) {
    batch?.finish();
    throw error;
  }
  return () => {
    if (batch === undefined) return known;
    const counts = batch.finish();
    let total = known;
    unknown.forEach(({ byKey, key }, index) => {
      const tokens = counts[index] as number;
      byKey.set(key, tokens);
      total += tokens;
    });
    return total;
  };
}

/**
 * Whether the bridge replaces the deferrable tools this turn, when that does not depend on what
 * their schemas weigh; undefined when it does (`auto:N`, not active before).
 */
function activationWithoutWeight(
  config: ToolSearchConfig,
  deferrableCount: number,
  previouslyActive: boolean,
): boolean | undefined {
  if (deferrableCount === 0) return false;
  switch (config.activation.kind) {
    case 'off':
      return false;
    case 'on':
      return true;
    case 'budget':
      return previouslyActive ? true : undefined;
  }
}

/** In `auto:N` mode: whether the deferrable schemas reach N % of the context window. */
function heavyEnough(config: ToolSearchConfig, deferredTokens: number, contextTokens: number): boolean {
  if (config.activation.kind !== 'budget') return false;
  const context = contextTokens > 0 ? contextTokens : ASSUMED_CONTEXT_TOKENS;
  return deferredTokens >= (context * config.activation.pct) / 100;
}

/**
 * The newest `keep` of `found` that are deferrable in `table`, oldest first (each once). These
 * leave the catalog and join the direct tools while the bridge is active.
 */
export function keptFoundTools(table: SessionToolTable, found: readonly string[], keep: number): SessionTool[] {
  if (keep <= 0 || found.length === 0) return [];
  const deferred = new Set(table.deferred.map((tool) => tool.name));
  const kept: SessionTool[] = [];
  const seen = new Set<string>();
  for (let index = found.length - 1; index >= 0 && kept.length < keep; index -= 1) {
    const name = found[index] as string;
    if (seen.has(name) || !deferred.has(name)) continue;
    seen.add(name);
    kept.push(table.byName.get(name) as SessionTool);
  }
  return kept.reverse();
}

/** The table with `kept` moved from the catalog to the end of the direct tools. */
function withKept(table: SessionToolTable, kept: readonly SessionTool[]): SessionToolTable {
  if (kept.length === 0) return table;
  const names = new Set(kept.map((tool) => tool.name));
  return {
    ...table,
    visible: [...table.visible, ...kept],
    deferred: table.deferred.filter((tool) => !names.has(tool.name)),
  };
}

function digest(tools: readonly FormattedTool[]): string {
  return createHash('sha256').update(JSON.stringify(tools)).digest('hex');
}

/**
 * Decides what the model sees this turn (seed 000's tiers). Pure and stateless: everything is
 * derived from the toolsets, the config and the context window on every call, so adding or
 * removing a server moves the session between tiers at its next assembly.
 *
 * - Tier 0: nothing is deferrable, or the bridge is off (or not yet active in `auto:N` mode):
 *   every tool passes through.
 * - Tier 1: the bridge plus a listing of the catalog (full, names-only or mixed).
 * - Tier 2: the bridge plus one summary line per source, or the bare bridge.
 */
export function assembleSession(input: AssemblyInput): Assembly {
  const encoding = input.encoding ?? DEFAULT_ENCODING;
  const format = input.format ?? 'openai';
  const { config } = input;
  const counter = tokenCounter(encoding);
  const table = buildSessionTools(input.toolsets, config);
  // Found tools kept direct (`keep_found`) leave the catalog only while the bridge is active; the
  // activation itself is decided on every deferrable tool, so keeping tools never switches it off.
  const kept = keptFoundTools(table, input.found ?? [], config.keep_found);
  const shown = withKept(table, kept);
  // Seed 000: `listing: on` fixes the listing on, whatever share of the context window it takes;
  // only its absolute cap (`listing_max_tokens`) still shapes it. `auto` also keeps to the share.
  const budget =
    config.listing === 'on'
      ? config.listing_max_tokens
      : listingBudget(input.contextTokens, config.threshold_pct, config.listing_max_tokens);
  const finishSchemaCount = startSchemaCount(table.deferred, counter);
  const knownActivation = activationWithoutWeight(config, table.deferred.length, input.previouslyActive ?? false);
  // When the bridge is on whatever the schemas weigh, the listing is built while they are counted.
  let listing: Listing | undefined;
  let deferrableTokens: number;
  try {
    if (knownActivation === true && config.listing !== 'off')
      listing = buildListing(shown.deferred, shown.unavailable, budget, counter);
  } finally {
    deferrableTokens = finishSchemaCount();
  }
  const activated = knownActivation ?? heavyEnough(config, deferrableTokens, input.contextTokens);
  // Counted above already (memoised per definition), so this costs a lookup per kept tool.
  const keptTokens = activated && kept.length > 0 ? startSchemaCount(kept, counter)() : 0;

  let neutralTools: NeutralTool[];
  let tier: Tier = 0;
  let listingForm: ListingForm = 'none';
  let listingText: string | null = null;
  let listingTokens = 0;
  let collapsed: readonly string[] = [];
  if (!activated) {
    // Pass-through keeps the canonical order of every tool, deferrable or not.
    neutralTools = [...table.byName.values()].map(neutral);
  } else {
    if (config.listing !== 'off') {
      listing ??= buildListing(shown.deferred, shown.unavailable, budget, counter);
      listingForm = listing.form;
      listingText = listing.text;
      listingTokens = listing.tokens;
      collapsed = listing.collapsed;
    }
    tier = listingForm === 'full' || listingForm === 'names' || listingForm === 'mixed' ? 1 : 2;
    neutralTools = [
      ...shown.visible.map(neutral),
      ...bridgeTools({
        deferredCount: shown.deferred.length,
        listing: listingText,
        listingForm,
        defaultLimit: config.search_default_limit,
        maxLimit: config.max_search_limit,
        ...BRIDGE_LIMITS,
      }),
    ];
  }
  const tools = formatTools(neutralTools, format);
  const toolsTokens = tools.reduce((sum, tool) => sum + counter.count(JSON.stringify(tool)), 0);
  return {
    // The full table: the bridge searches and calls every deferrable tool, kept ones included, so
    // sessions that keep different tools still share one search index.
    table,
    result: {
      activated,
      tier,
      listing_form: listingForm,
      mode: config.activation.kind,
      tools,
      format,
      encoding,
      visible_count: activated ? shown.visible.length : tools.length,
      deferred_count: activated ? shown.deferred.length : 0,
      deferrable_count: table.deferred.length,
      kept: activated ? kept.map((tool) => tool.name) : [],
      deferred_tokens: deferrableTokens - keptTokens,
      listing_tokens: listingTokens,
      budget_tokens: budget,
      tools_tokens: toolsTokens,
      listing: listingText,
      collapsed,
      hash: digest(tools),
    },
  };
}
