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

type Mode = 'full' | 'names' | 'summary';

/**
 * One source's three renderings; the full one (which needs every tool's short description) and
 * every token count are computed only when a decision needs them. With hundreds of sources and a
 * small budget most sources are never rendered in full.
 */
class Group {
  readonly #tokens: Partial<Record<Mode, number>> = {};
  #full: string | undefined;
  /** "label (N tools)", the start of the full and names-only renderings. */
  readonly #heading: string;
  readonly names: string;
  readonly summary: string;

  /** `tools` sorted by name. */
  constructor(
    readonly label: string,
    private readonly tools: readonly SessionTool[],
    private readonly counter: TokenCounter,
  ) {
    const count = `${tools.length} ${tools.length === 1 ? 'tool' : 'tools'}`;
    this.#heading = `${label} (${count})`;
    this.names = `${this.#heading}: ${tools.map((tool) => tool.name).join(', ')}`;
    this.summary = `${label}: ${count}`;
  }

  get full(): string {
    if (this.#full === undefined) {
      const lines = [`${this.#heading}:`];
      for (const tool of this.tools) {
        const short = shortDescription(tool.definition.description);
        lines.push(short ? `- ${tool.name}: ${short}` : `- ${tool.name}`);
      }
      this.#full = lines.join('\n');
    }
    return this.#full;
  }

  text(mode: Mode): string {
    return mode === 'full' ? this.full : mode === 'names' ? this.names : this.summary;
  }

  /**
   * Tokens of this block followed by a line break. Adding blocks up this way is exact for the
   * joined text plus one trailing newline: tiktoken encodes pre-split pieces independently, and a
   * line break that ends a block also ends a piece — unless the next block starts with `/` (a
   * source label such as "/srv/tools"), where the sum can come out a token short. A short sum
   * only lets a rendering through to `finish`, whose recount of the joined text rejects it.
   */
  tokens(mode: Mode): number {
    let tokens = this.#tokens[mode];
    if (tokens === undefined) {
      tokens = this.counter.count(`${this.text(mode)}\n`);
      this.#tokens[mode] = tokens;
    }
    return tokens;
  }
}

/**
 * A source label as a listing line starts with it: one line, and without leading list, heading or
 * quote markers, so a label such as "- fake_tool: …" cannot pass for a tool row.
 */
function label(text: string): string {
  return singleLine(text).replace(/^[-*+#>\s]+/, '') || 'other';
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

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
    // Names are unique within a session, so sorting by name alone is a total order.
    groups.push(
      new Group(
        key,
        members.sort((a, b) => compareText(a.name, b.name)),
        counter,
      ),
    );
  }
  return groups.sort((a, b) => compareText(a.label, b.label));
}

function unavailableLine(source: UnavailableSource): string {
  const reason = singleLine(source.reason) || 'the source is not connected';
  const count = source.toolCount > 0 ? `${source.toolCount} tools ` : 'tools ';
  return `${label(source.label)} (${count}unavailable: ${reason})`;
}

/**
 * Renders the catalog listing within `budget` tokens, degrading per source: every source full →
 * every source names-only → the largest sources collapsed to a one-line count, one at a time →
 * every source as a count → no listing. Sources that are declared but unavailable always get
 * their own line. The output is byte-stable: sources sorted by label, tools by name.
 *
 * Token counts are taken lazily and a rendering is abandoned as soon as its running count passes
 * the budget, so the work grows with the budget, not with the catalog.
 */
export function buildListing(
  tools: readonly SessionTool[],
  unavailable: readonly UnavailableSource[],
  budget: number,
  counter: TokenCounter,
): Listing {
  const groups = buildGroups(tools, counter);
  const extra = unavailable.map((source) => ({ label: label(source.label), line: unavailableLine(source) }));
  if (groups.length === 0 && extra.length === 0) return NO_LISTING;

  // The joined text has no trailing newline, so the block sum may exceed it by one token.
  const limit = budget + 1;
  let fixedTokens = counter.count(`${LISTING_HEADER}\n`);
  for (const entry of extra) fixedTokens += counter.count(`${entry.line}\n`);
  if (fixedTokens > limit) return NO_LISTING;

  const fits = (modes: ReadonlyMap<Group, Mode>, fallback: Mode): boolean => {
    let sum = fixedTokens;
    for (const group of groups) {
      sum += group.tokens(modes.get(group) ?? fallback);
      if (sum > limit) return false;
    }
    return true;
  };
  const finish = (modes: ReadonlyMap<Group, Mode>, fallback: Mode, form: ListingForm): Listing | undefined => {
    const blocks = [
      ...groups.map((group) => ({ label: group.label, text: group.text(modes.get(group) ?? fallback) })),
      ...extra.map((entry) => ({ label: entry.label, text: entry.line })),
    ].sort((a, b) => compareText(a.label, b.label));
    const text = [LISTING_HEADER, ...blocks.map((block) => block.text)].join('\n');
    const tokens = counter.count(text);
    if (tokens > budget) return undefined;
    const collapsed = groups
      .filter((group) => (modes.get(group) ?? fallback) === 'summary')
      .map((group) => group.label);
    return { text, form, tokens, collapsed };
  };

  const none = new Map<Group, Mode>();
  if (fits(none, 'full')) {
    const listing = finish(none, 'full', 'full');
    if (listing) return listing;
  }
  if (fits(none, 'names')) {
    const listing = finish(none, 'names', 'names');
    if (listing) return listing;
  }
  // Largest first, by the length of its names-only rendering; ties go to the earlier label.
  const bySize = [...groups].sort((a, b) => b.names.length - a.names.length || compareText(a.label, b.label));
  const modes = new Map<Group, Mode>();
  for (const [index, group] of bySize.entries()) {
    modes.set(group, 'summary');
    if (!fits(modes, 'names')) continue;
    const listing = finish(modes, 'names', index === bySize.length - 1 ? 'groups' : 'mixed');
    if (listing) return listing;
  }
  return NO_LISTING;
}

const NO_LISTING: Listing = Object.freeze({ text: null, form: 'none', tokens: 0, collapsed: Object.freeze([]) });

/**
 * The listing budget: min(`threshold_pct` % of the context window, `listing_max_tokens`). With an
 * unknown context (0 or less) the percentage leg is 10,000 tokens (5 % of a typical 200K window).
 */
export function listingBudget(contextTokens: number, thresholdPct: number, listingMaxTokens: number): number {
  const pctLeg = contextTokens > 0 ? Math.floor((contextTokens * thresholdPct) / 100) : 10_000;
  return Math.max(0, Math.min(listingMaxTokens, pctLeg));
}
