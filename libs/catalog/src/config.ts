/**
 * `tools.tool_search` configuration (seed 000) plus the `ENABLE_TOOL_SEARCH` switch (seed 003).
 * Parsing never throws: every value is clamped or replaced by its default, and each correction is
 * reported as a warning so an operator can see what was ignored. A typo must not break a session.
 */
import { readRoutingRules, type RoutingRule } from './routing-rules';

/** How the bridge activates for a session. */
export type ActivationMode =
  /** Never: every tool is loaded directly (tier 0). */
  | { readonly kind: 'off' }
  /** Whenever at least one tool is deferrable (seed 000's `on`, and `auto` today). */
  | { readonly kind: 'on' }
  /**
   * Budget-gated (`auto:N`): only once the deferrable schemas reach `pct` % of the context window;
   * once active it stays active for the session.
   */
  | { readonly kind: 'budget'; readonly pct: number };

export type TriState = 'auto' | 'on' | 'off';

export interface ToolSearchConfig {
  /** The `enabled` key as written (after alias folding), kept for display. */
  readonly enabled: TriState | `auto:${number}`;
  /** The activation that results from `enabled` and `ENABLE_TOOL_SEARCH` together. */
  readonly activation: ActivationMode;
  /** Listing budget as a percentage of the context window, 0–100. */
  readonly threshold_pct: number;
  /** Matches per query when the model gives no `limit`, 1–`max_search_limit`. */
  readonly search_default_limit: number;
  /** The largest `limit` the model may ask for, 1–50. */
  readonly max_search_limit: number;
  /** Embed the grouped catalog listing in `tool_search`'s description. */
  readonly listing: TriState;
  /** Absolute cap on the listing, 200–60,000 tokens. */
  readonly listing_max_tokens: number;
  /** Tool names pushed into the catalog even though they are core tools. */
  readonly defer: ReadonlySet<string>;
  /** Tool names that are always loaded directly (the agent's working set). */
  readonly core_tools: ReadonlySet<string>;
  /** Explicit routing rules, in order. */
  readonly routing: readonly RoutingRule[];
  /**
   * How many tools the session found (described or called) stay loaded directly in its later
   * assemblies, oldest out first; 0 (the default) keeps every deferrable tool behind the bridge.
   */
  readonly keep_found: number;
}

export interface ParsedConfig {
  readonly config: ToolSearchConfig;
  readonly warnings: readonly string[];
}

/**
 * The agent working set that is never deferred unless named in `defer`. The same set as the
 * best-known implementation's core list, so gateways that port from it keep their behaviour.
 */
export const DEFAULT_CORE_TOOLS: readonly string[] = [
  'web_search',
  'web_extract',
  'terminal',
  'process_manage',
  'read_file',
  'write_file',
  'patch',
  'search_files',
  'vision_analyze',
  'image_generate',
  'skills_list',
  'skill_view',
  'skill_manage',
  'browser_navigate',
  'browser_snapshot',
  'browser_click',
  'browser_type',
  'browser_scroll',
  'browser_back',
  'browser_press',
  'browser_get_images',
  'browser_vision',
  'browser_console',
  'browser_cdp',
  'browser_dialog',
  'browser_exec',
  'text_to_speech',
  'todo_list',
  'memory',
  'session_search',
  'clarify',
  'execute_code',
  'delegate_task',
  'cronjob_manage',
  'ha_list_entities',
  'ha_get_state',
  'ha_list_services',
  'ha_call_service',
  'kanban_show',
  'kanban_list',
  'kanban_complete',
  'kanban_block',
  'kanban_request_review',
  'kanban_request_changes',
  'kanban_heartbeat',
  'kanban_comment',
  'kanban_create',
  'kanban_link',
  'kanban_unblock',
  'kanban_attach',
  'kanban_attach_url',
  'kanban_attachments',
  'computer_use',
];

/**
 * Core tools that are rarely needed and are deferred unless the user's `defer` list says otherwise
 * (the list itself is this project's addition to seed 000, where core tools are never deferred).
 * `clarify` is deliberately absent: deferring it made models stop asking structured questions; so
 * is `session_search`, which seed 000 names among the core tools that are always loaded.
 */
export const DEFAULT_DEFER_TOOLS: readonly string[] = [
  'computer_use',
  'image_generate',
  'todo_list',
  'process_manage',
  'cronjob_manage',
  'drive_preview',
  'gui_tour',
  'desktop_preview',
  'annotate_preview',
  'show_tip',
  'setup_mcp',
  'desktop_project',
  'close_terminal',
  'apply_layout',
  'read_terminal',
  'read_window_below',
  'focus_pane',
];

export const CONFIG_LIMITS = {
  threshold_pct: { min: 0, max: 100, default: 5 },
  search_default_limit: { min: 1, default: 5 },
  max_search_limit: { min: 1, max: 50, default: 25 },
  listing_max_tokens: { min: 200, max: 60_000, default: 4000 },
  keep_found: { min: 0, max: 50, default: 0 },
} as const;

/** The context window assumed when the model's is unknown (0 or missing). */
export const ASSUMED_CONTEXT_TOKENS = 200_000;

const KEYS = new Set([
  'enabled',
  'threshold_pct',
  'search_default_limit',
  'max_search_limit',
  'listing',
  'listing_max_tokens',
  'defer',
  'core_tools',
  'routing',
  'keep_found',
]);

/** Folds the tri-state aliases: true/1/yes/on → on, false/0/no/off → off, auto → auto. */
export function parseTriState(value: unknown): TriState | undefined {
  const text = String(value).trim().toLowerCase();
  if (['on', 'true', '1', 'yes'].includes(text)) return 'on';
  if (['off', 'false', '0', 'no'].includes(text)) return 'off';
  if (text === 'auto') return 'auto';
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function readNumber(
  raw: Record<string, unknown>,
  key: string,
  limits: { min: number; max: number; default: number },
  integer: boolean,
  warnings: string[],
): number {
  const value = raw[key];
  if (value === undefined || value === null) return limits.default;
  const parsed = typeof value === 'number' ? value : typeof value === 'string' ? Number(value.trim()) : NaN;
  if (!Number.isFinite(parsed) || (typeof value === 'string' && value.trim() === '')) {
    warnings.push(`tools.tool_search.${key} is ${JSON.stringify(value)}, not a number; using ${limits.default}.`);
    return limits.default;
  }
  const whole = integer ? Math.trunc(parsed) : parsed;
  const clamped = Math.min(limits.max, Math.max(limits.min, whole));
  if (clamped !== parsed) {
    warnings.push(
      `tools.tool_search.${key} is ${JSON.stringify(value)}; it must be ${integer ? 'a whole number ' : ''}from ${limits.min} to ${limits.max}, using ${clamped}.`,
    );
  }
  return clamped;
}

function readNameSet(
  raw: Record<string, unknown>,
  key: 'defer' | 'core_tools',
  fallback: readonly string[],
  warnings: string[],
): ReadonlySet<string> {
  const value = raw[key];
  if (value === undefined || value === null) return new Set(fallback);
  if (!Array.isArray(value)) {
    warnings.push(
      `tools.tool_search.${key} is ${JSON.stringify(value)}; it must be a list of tool names (for example [todo_list, computer_use]; [] for none). Using the default list.`,
    );
    return new Set(fallback);
  }
  const names = new Set<string>();
  for (const item of value) {
    if (typeof item !== 'string') {
      warnings.push(`tools.tool_search.${key} has ${JSON.stringify(item)}, which is not a tool name; it was skipped.`);
      continue;
    }
    if (item.trim() !== '') names.add(item.trim());
  }
  return names;
}

/**
 * Reads `ENABLE_TOOL_SEARCH` (seed 003). Unset/empty → undefined (the config decides). `true` → on,
 * `false` → off, `auto:N` → budget-gated at N % of the context (0–100), and plain `auto` is seed
 * 003's default, `auto:10`: off until the deferrable definitions reach 10 % of the context window.
 */
export function parseEnableToolSearch(value: string | undefined, warnings: string[] = []): ActivationMode | undefined {
  if (value === undefined) return undefined;
  const text = value.trim().toLowerCase();
  if (text === '') return undefined;
  if (text === 'true') return { kind: 'on' };
  if (text === 'auto') return { kind: 'budget', pct: ENABLE_TOOL_SEARCH_AUTO_PCT };
  if (text === 'false') return { kind: 'off' };
  const match = /^auto:(.*)$/.exec(text);
  if (match) {
    const pct = Number(match[1]);
    if (match[1]?.trim() !== '' && Number.isFinite(pct)) {
      const clamped = Math.min(100, Math.max(0, pct));
      if (clamped !== pct)
        warnings.push(`ENABLE_TOOL_SEARCH=${value}: the percentage must be 0–100; using ${clamped}.`);
      return { kind: 'budget', pct: clamped };
    }
  }
  warnings.push(
    `ENABLE_TOOL_SEARCH=${JSON.stringify(value)} is not one of true, false, auto, auto:N (N a percentage); it is ignored.`,
  );
  return undefined;
}

/** What plain `ENABLE_TOOL_SEARCH=auto` means (seed 003): `auto:10`. */
export const ENABLE_TOOL_SEARCH_AUTO_PCT = 10;

function readEnabled(raw: Record<string, unknown>, warnings: string[]): ToolSearchConfig['enabled'] {
  const value = raw['enabled'];
  if (value === undefined || value === null) return 'auto';
  const tri = parseTriState(value);
  if (tri !== undefined) return tri;
  if (typeof value === 'string' && /^auto:/i.test(value.trim())) {
    const mode = parseEnableToolSearch(value, warnings);
    if (mode?.kind === 'budget') return `auto:${mode.pct}`;
    return 'auto';
  }
  warnings.push(`tools.tool_search.enabled is ${JSON.stringify(value)}; use auto, on, off or auto:N. Using auto.`);
  return 'auto';
}

function activationFromEnabled(enabled: ToolSearchConfig['enabled']): ActivationMode {
  if (enabled === 'off') return { kind: 'off' };
  if (enabled === 'on' || enabled === 'auto') return { kind: 'on' };
  return { kind: 'budget', pct: Number(enabled.slice(5)) };
}

export interface ParseOptions {
  /** The value of the `ENABLE_TOOL_SEARCH` environment variable, if set. It overrides `enabled`. */
  readonly enableToolSearch?: string | undefined;
}

/**
 * Parses the `tools.tool_search` value. Accepts the mapping form, the legacy booleans (`true` →
 * enabled auto, `false` → off), the tri-state strings (`"off"`) and nothing at all (defaults).
 *
 * Precedence for activation: `ENABLE_TOOL_SEARCH` (when set to a valid value) over `enabled` over
 * the default (`auto`, which behaves as `on`).
 */
export function parseToolSearchConfig(raw: unknown, options: ParseOptions = {}): ParsedConfig {
  const warnings: string[] = [];
  let record: Record<string, unknown>;
  if (raw === undefined || raw === null) record = {};
  else if (raw === true) record = { enabled: 'auto' };
  else if (raw === false) record = { enabled: 'off' };
  else if (isRecord(raw)) record = raw;
  else {
    const tri = parseTriState(raw);
    if (tri === undefined) {
      warnings.push(
        `tools.tool_search is ${JSON.stringify(raw)}; expected a mapping or true/false. Using the defaults.`,
      );
    }
    record = { enabled: tri ?? 'auto' };
  }
  for (const key of Object.keys(record)) {
    if (!KEYS.has(key)) warnings.push(`tools.tool_search.${key} is not a known key; it is ignored.`);
  }

  const enabled = readEnabled(record, warnings);
  const threshold_pct = readNumber(record, 'threshold_pct', CONFIG_LIMITS.threshold_pct, false, warnings);
  const max_search_limit = readNumber(record, 'max_search_limit', CONFIG_LIMITS.max_search_limit, true, warnings);
  const search_default_limit = readNumber(
    record,
    'search_default_limit',
    { ...CONFIG_LIMITS.search_default_limit, max: max_search_limit, default: Math.min(5, max_search_limit) },
    true,
    warnings,
  );
  const listingRaw = record['listing'];
  let listing: TriState = 'auto';
  if (listingRaw !== undefined && listingRaw !== null) {
    const tri = parseTriState(listingRaw);
    if (tri === undefined)
      warnings.push(`tools.tool_search.listing is ${JSON.stringify(listingRaw)}; use auto, on or off. Using auto.`);
    listing = tri ?? 'auto';
  }
  const listing_max_tokens = readNumber(record, 'listing_max_tokens', CONFIG_LIMITS.listing_max_tokens, true, warnings);
  const defer = readNameSet(record, 'defer', DEFAULT_DEFER_TOOLS, warnings);
  const core_tools = readNameSet(record, 'core_tools', DEFAULT_CORE_TOOLS, warnings);
  const routing = readRoutingRules(record, warnings);
  const keep_found = readNumber(record, 'keep_found', CONFIG_LIMITS.keep_found, true, warnings);

  const fromEnv = parseEnableToolSearch(options.enableToolSearch, warnings);
  const activation = fromEnv ?? activationFromEnabled(enabled);

  return {
    config: {
      enabled,
      activation,
      threshold_pct,
      search_default_limit,
      max_search_limit,
      listing,
      listing_max_tokens,
      defer,
      core_tools,
      routing,
      keep_found,
    },
    warnings,
  };
}

/** The defaults, as `parseToolSearchConfig(undefined)` gives them. */
export function defaultToolSearchConfig(): ToolSearchConfig {
  return parseToolSearchConfig(undefined).config;
}
