import type { SessionTool, UnavailableSource } from '@toolsearch/catalog';
import type { TokenCounter } from '@toolsearch/tokens';
import { shortDescription, singleLine } from './short-description';

/** How much of the catalog the listing shows (seed 000's tiers follow from it). */
export type ListingForm = 'full' | 'names' | 'mixed' | 'groups' | 'none';

export const LISTING_HEADER = 'Deferred tools by source (load schemas with tool_describe, run with tool_call):';

export interface Listing {
  /** The listing text, or null when none fits (or the listing is off). */
  readonly text: string | null;
  readonly form: ListingForm;
  /** Exact token count of `text` (0 when there is none). */
  readonly tokens: number;
  /** Labels of the sources shown as a one-line summary. */
  readonly collapsed: readonly string[];
}

interface Group {
  readonly label: string;
  /** Lines of the full form: header, then one line per tool. */
  readonly full: string;
  readonly names: string;
  readonly summary: string;
  readonly fullTokens: number;
  readonly namesTokens: number;
  readonly summaryTokens: number;
}

function label(text: string): string {
  return singleLine(text) || 'other';
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Counts blocks separately and adds them up. That is exact: tiktoken splits text into pieces before
 * encoding and a line break that ends a block also ends a piece, because no block starts with
 * white space or `/`. `buildListing` still counts the final text as a whole before reporting it.
 */
function buildGroups(tools: readonly SessionTool[], counter: TokenCounter): Group[] {
  const byLabel = new Map<string, SessionTool[]>();
  for (const tool of tools) {
    const key = label(tool.label);
    const list = byLabel.get(key);
    if (list) list.push(tool);
    else byLabel.set(key, [tool]);
  }
  const groups: Group[] = [];
  for (const [key, members] of byLabel) {
    const rows = members
      .map((tool) => ({ name: tool.name, short: shortDescription(tool.definition.description) }))
      .sort((a, b) => compareText(a.name, b.name) || compareText(a.short, b.short));
    const count = rows.length;
    const noun = count === 1 ? 'tool' : 'tools';
    const full = [
      `${key} (${count} ${noun}):`,
      ...rows.map((row) => (row.short ? `- ${row.name}: ${row.short}` : `- ${row.name}`)),
    ].join('\n');
    const names = `${key} (${count} ${noun}): ${rows.map((row) => row.name).join(', ')}`;
    const summary = `${key}: ${count} ${noun}, names not listed (find them with tool_search)`;
    groups.push({
      label: key,
      full,
      names,
      summary,
      fullTokens: counter.count(`${full}\n`),
      namesTokens: counter.count(`${names}\n`),
      summaryTokens: counter.count(`${summary}\n`),
    });
  }
  return groups.sort((a, b) => compareText(a.label, b.label));
}

function unavailableLine(source: UnavailableSource): string {
  const reason = singleLine(source.reason) || 'the source is not connected';
  const count = source.toolCount > 0 ? `${source.toolCount} tools ` : 'tools ';
  return `${label(source.label)} (${count}unavailable: ${reason})`;
}

type Mode = 'full' | 'names' | 'summary';

/**
 * Renders the catalog listing within `budget` tokens, degrading per source: every source full →
 * every source names-only → the largest sources collapsed to a one-line summary, one at a time →
 * every source summarised → no listing. Sources that are declared but unavailable always get
 * their own line. The output is byte-stable: sources sorted by label, tools by name.
 */
export function buildListing(
  tools: readonly SessionTool[],
  unavailable: readonly UnavailableSource[],
  budget: number,
  counter: TokenCounter,
): Listing {
  const groups = buildGroups(tools, counter);
  const extra = unavailable
    .map((source) => ({ label: label(source.label), line: unavailableLine(source) }))
    .map((entry) => ({ ...entry, tokens: counter.count(`${entry.line}\n`) }));
  if (groups.length === 0 && extra.length === 0) return { text: null, form: 'none', tokens: 0, collapsed: [] };

  const headerTokens = counter.count(`${LISTING_HEADER}\n`);
  const extraTokens = extra.reduce((sum, entry) => sum + entry.tokens, 0);
  const render = (modes: ReadonlyMap<string, Mode>): string => {
    const blocks = [
      ...groups.map((group) => {
        const mode = modes.get(group.label) ?? 'full';
        return {
          label: group.label,
          text: mode === 'full' ? group.full : mode === 'names' ? group.names : group.summary,
        };
      }),
      ...extra.map((entry) => ({ label: entry.label, text: entry.line })),
    ].sort((a, b) => compareText(a.label, b.label));
    return [LISTING_HEADER, ...blocks.map((block) => block.text)].join('\n');
  };
  const tokensOf = (modes: ReadonlyMap<string, Mode>): number =>
    groups.reduce((sum, group) => {
      const mode = modes.get(group.label) ?? 'full';
      return sum + (mode === 'full' ? group.fullTokens : mode === 'names' ? group.namesTokens : group.summaryTokens);
    }, headerTokens + extraTokens);

  const attempt = (modes: ReadonlyMap<string, Mode>, form: ListingForm): Listing | undefined => {
    // A trailing newline is part of every block's count; the last block has none in the text.
    if (tokensOf(modes) > budget + 1) return undefined;
    const text = render(modes);
    const tokens = counter.count(text);
    if (tokens > budget) return undefined;
    const collapsed = groups.filter((group) => modes.get(group.label) === 'summary').map((group) => group.label);
    return { text, form, tokens, collapsed };
  };

  const allOf = (mode: Mode) => new Map(groups.map((group) => [group.label, mode] as const));
  const full = attempt(allOf('full'), 'full');
  if (full) return full;
  const modes = allOf('names');
  const names = attempt(modes, 'names');
  if (names) return names;
  // Largest first by the size of its names-only rendering; ties go to the earlier label.
  const bySize = [...groups].sort((a, b) => b.namesTokens - a.namesTokens || compareText(a.label, b.label));
  for (const [index, group] of bySize.entries()) {
    modes.set(group.label, 'summary');
    const form: ListingForm = index === bySize.length - 1 ? 'groups' : 'mixed';
    const fitted = attempt(modes, form);
    if (fitted) return fitted;
  }
  return { text: null, form: 'none', tokens: 0, collapsed: [] };
}

/**
 * The listing budget: min(`threshold_pct` % of the context window, `listing_max_tokens`). With an
 * unknown context (0 or less) the percentage leg is 10,000 tokens (5 % of a typical 200K window).
 */
export function listingBudget(contextTokens: number, thresholdPct: number, listingMaxTokens: number): number {
  const pctLeg = contextTokens > 0 ? Math.floor((contextTokens * thresholdPct) / 100) : 10_000;
  return Math.max(0, Math.min(listingMaxTokens, pctLeg));
}
