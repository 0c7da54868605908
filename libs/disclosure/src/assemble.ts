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
  /** Tools that could be deferred, activated or not. */
  readonly deferrable_count: number;
  /** Exact tokens of the deferrable tools' schemas (each as compact JSON), what deferral saves. */
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
  let deferredTokens: number;
  try {
    if (knownActivation === true && config.listing !== 'off')
      listing = buildListing(table.deferred, table.unavailable, budget, counter);
  } finally {
    deferredTokens = finishSchemaCount();
  }
  const activated = knownActivation ?? heavyEnough(config, deferredTokens, input.contextTokens);

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
      listing ??= buildListing(table.deferred, table.unavailable, budget, counter);
      listingForm = listing.form;
      listingText = listing.text;
      listingTokens = listing.tokens;
      collapsed = listing.collapsed;
    }
    tier = listingForm === 'full' || listingForm === 'names' || listingForm === 'mixed' ? 1 : 2;
    neutralTools = [
      ...table.visible.map(neutral),
      ...bridgeTools({
        deferredCount: table.deferred.length,
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
    table,
    result: {
      activated,
      tier,
      listing_form: listingForm,
      mode: config.activation.kind,
      tools,
      format,
      encoding,
      visible_count: activated ? table.visible.length : tools.length,
      deferred_count: activated ? table.deferred.length : 0,
      deferrable_count: table.deferred.length,
      deferred_tokens: deferredTokens,
      listing_tokens: listingTokens,
      budget_tokens: budget,
      tools_tokens: toolsTokens,
      listing: listingText,
      collapsed,
      hash: digest(tools),
    },
  };
}
