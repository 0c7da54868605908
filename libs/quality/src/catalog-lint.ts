import type { SessionTool } from '@toolsearch/catalog';
import { QUERY_STOP_WORDS, SearchEngine, termSurfaces, toSearchDocument } from '@toolsearch/search';
import { riskOf } from './tool-card';

export type Severity = 'error' | 'warning' | 'info';

/** Finding codes: what hurts a tool's discovery, each with a one-line fix. */
export const LINT_CODES = {
  EMPTY_DESCRIPTION: {
    severity: 'error',
    fix: 'Write what the tool does and when to use it, in one or two sentences.',
  },
  SHORT_DESCRIPTION: {
    severity: 'warning',
    fix: 'Say what the tool acts on and when to use it (and when not to); a few words do not tell tools apart.',
  },
  VAGUE_NAME: {
    severity: 'warning',
    fix: 'Name the tool after its purpose (search_refund_policy), not its implementation (query_42).',
  },
  NOT_SELF_RETRIEVABLE: {
    severity: 'warning',
    fix: "A search made of the description's own key words does not find this tool near the top: use the words users would search for.",
  },
  CONFUSABLE: {
    severity: 'warning',
    fix: 'Another tool is described almost the same way: say what sets each apart (the separating terms are listed), or add distinguishing tags.',
  },
  WRITE_WITHOUT_RISK: {
    severity: 'warning',
    fix: 'This tool changes things: declare its risk level (low, medium, high) so approvals can apply.',
  },
  PARAM_WITHOUT_DESCRIPTION: {
    severity: 'info',
    fix: 'Describe each parameter: what to pass, its format, an example.',
  },
} as const satisfies Record<string, { severity: Severity; fix: string }>;
export type LintCode = keyof typeof LINT_CODES;

export interface Finding {
  readonly code: LintCode;
  readonly severity: Severity;
  readonly tool: string;
  readonly server: string;
  readonly message: string;
  readonly fix: string;
  readonly details?: Readonly<Record<string, unknown>>;
}

export interface ServerScore {
  readonly server: string;
  readonly tools: number;
  /** 100 when no tool has a finding; each finding costs its tool points (error 25, warning 10, info 2). */
  readonly score: number;
  readonly findings: number;
}

export interface LintReport {
  readonly tools: number;
  readonly findings: readonly Finding[];
  readonly counts: Readonly<Record<LintCode, number>>;
  readonly servers: readonly ServerScore[];
}

export interface LintOptions {
  /** A description shorter than this many characters is SHORT_DESCRIPTION. */
  readonly shortDescription?: number;
  /** The tool must rank at least this high for a query made from its own description. */
  readonly selfRank?: number;
  /** Called after each tool with (done, total), e.g. for a progress bar. */
  readonly onProgress?: (done: number, total: number) => void;
}

const GENERIC_NAME_WORDS = new Set(
  'tool tools func function fn method handler api call run do exec execute query test tmp temp misc util utils helper action op operation endpoint new my get set data item'.split(
    ' ',
  ),
);
const WRITE_WORDS =
  /(^|[_\-.\s])(create|update|delete|remove|drop|write|send|post|put|patch|set|add|insert|upload|move|rename|merge|close|cancel|archive|execute|run|deploy|publish|transfer|pay|charge|kill|stop|restart|reset|revoke|grant|invite|ban|edit|modify|commit|push)($|[_\-.\s]|[A-Z])/i;
const PENALTY: Record<Severity, number> = { error: 25, warning: 10, info: 2 };

function finding(code: LintCode, tool: SessionTool, message: string, details?: Record<string, unknown>): Finding {
  const { severity, fix } = LINT_CODES[code];
  return { code, severity, tool: tool.name, server: tool.label, message, fix, ...(details ? { details } : {}) };
}

/** Whether a tool name says nothing about its purpose: no word beyond generic ones and numbers. */
export function isVagueName(name: string): boolean {
  const words =
    name
      .replace(/([a-z])([A-Z])/g, '$1 $2')
      .toLowerCase()
      .match(/[a-z]+/g) ?? [];
  return !words.some((word) => word.length >= 3 && !GENERIC_NAME_WORDS.has(word));
}

/** The query a user might type for this tool: its description's first content words. */
export function selfQuery(description: string, max = 8): string {
  const words = description.match(/[\p{L}\p{N}]+/gu) ?? [];
  return words
    .filter((word) => !QUERY_STOP_WORDS.has(word.toLowerCase()))
    .slice(0, max)
    .join(' ');
}

const terms = new WeakMap<SessionTool, ReadonlyMap<string, string>>();
/** A tool's analyzed name, description and tags: each term with the tool's own word for it. */
function termsOf(tool: SessionTool): ReadonlyMap<string, string> {
  let found = terms.get(tool);
  if (found === undefined) {
    found = termSurfaces(`${tool.originalName} ${tool.definition.description} ${tool.definition.tags.join(' ')}`);
    terms.set(tool, found);
  }
  return found;
}

/** |A ∩ B| / min(|A|, |B|): 1 when one tool's terms are all in the other's. */
function overlap(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const term of a.keys()) if (b.has(term)) shared += 1;
  return shared / Math.min(a.size, b.size);
}

/**
 * Terms of `a` (name, description, tags) that `b` lacks, a few of them: compared as stems, shown
 * as the catalog's own words ("repositories", not "repositori"). Stop words are left out: queries
 * drop them, so they tell no two tools apart.
 */
function separatingTerms(a: SessionTool, b: SessionTool): string[] {
  const other = termsOf(b);
  return [...termsOf(a)]
    .filter(([term, word]) => !other.has(term) && term.length >= 2 && !QUERY_STOP_WORDS.has(word))
    .slice(0, 6)
    .map(([, word]) => word);
}

/**
 * Lints a catalog for what hurts discovery. Self-retrieval and confusable pairs use the same
 * search engine as `tool_search`: each tool is searched with a query made from its own
 * description; it should come near the top, and a tool that comes above it (or all but ties with
 * it) is too close to tell apart.
 */
export function lintCatalog(tools: readonly SessionTool[], options: LintOptions = {}): LintReport {
  const shortLimit = options.shortDescription ?? 30;
  const selfRank = options.selfRank ?? 3;
  const engine = new SearchEngine(tools.map((tool) => toSearchDocument(tool)));
  const findings: Finding[] = [];
  const confusable = new Set<string>();
  // Each tool searched with its own description's key words, once; pairs are judged both ways.
  const selfHits = tools.map((tool) => {
    const query = selfQuery(tool.definition.description.trim());
    return { query, hits: query === '' ? [] : engine.search(query, Math.max(selfRank, 5)) };
  });
  /** Whether `other` comes close to `index` in `index`'s own search (at least half its score). */
  const closeTo = (index: number, other: number): boolean => {
    const { hits } = selfHits[index] ?? { hits: [] };
    const own = hits.find((hit) => hit.index === index);
    const theirs = hits.find((hit) => hit.index === other);
    return theirs !== undefined && (own === undefined || theirs.score >= own.score * 0.5);
  };
  tools.forEach((tool, index) => {
    const description = tool.definition.description.trim();
    // Chinese, Japanese and Korean characters carry about two Latin letters' worth each.
    const weight =
      description.length +
      (description.match(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu)?.length ?? 0);
    if (description === '') findings.push(finding('EMPTY_DESCRIPTION', tool, 'The tool has no description.'));
    else if (weight < shortLimit) {
      findings.push(
        finding('SHORT_DESCRIPTION', tool, `The description is ${description.length} characters long.`, {
          length: description.length,
        }),
      );
    }
    if (isVagueName(tool.originalName))
      findings.push(
        finding('VAGUE_NAME', tool, `The name "${tool.originalName}" says nothing about what the tool is for.`),
      );
    const { query, hits } = selfHits[index] ?? { query: '', hits: [] };
    if (query !== '') {
      const rank = hits.findIndex((hit) => hit.index === index);
      if (rank < 0 || rank >= selfRank) {
        findings.push(
          finding(
            'NOT_SELF_RETRIEVABLE',
            tool,
            `Searching "${query}" puts it ${rank < 0 ? 'outside the top 5' : `at rank ${rank + 1}`}.`,
            { query, rank: rank < 0 ? null : rank + 1 },
          ),
        );
      }
      for (const hit of hits) {
        const other = tools[hit.index];
        if (hit.index === index || other === undefined) continue;
        // Confusable only when each one's own search finds the other close, and they share most words.
        if (!closeTo(index, hit.index) || !closeTo(hit.index, index) || overlap(termsOf(tool), termsOf(other)) < 0.6)
          continue;
        const pair = [tool.name, other.name].sort().join('\u0000');
        if (confusable.has(pair)) continue;
        confusable.add(pair);
        findings.push(
          finding('CONFUSABLE', tool, `Search cannot tell it apart from ${other.name}.`, {
            other: other.name,
            separating: { [tool.name]: separatingTerms(tool, other), [other.name]: separatingTerms(other, tool) },
          }),
        );
      }
    }
    const risk = riskOf(tool);
    if (
      risk.basis !== 'declared' &&
      (WRITE_WORDS.test(tool.originalName) || tool.definition.annotations?.destructiveHint === true)
    ) {
      findings.push(
        finding('WRITE_WITHOUT_RISK', tool, 'It looks like it changes things, and no risk level is declared.'),
      );
    }
    const properties = tool.definition.inputSchema['properties'];
    if (typeof properties === 'object' && properties !== null) {
      const missing = Object.entries(properties as Record<string, unknown>)
        .filter(
          ([, value]) =>
            typeof value !== 'object' ||
            value === null ||
            typeof (value as { description?: unknown }).description !== 'string' ||
            (value as { description: string }).description.trim() === '',
        )
        .map(([name]) => name);
      if (missing.length > 0) {
        findings.push(
          finding('PARAM_WITHOUT_DESCRIPTION', tool, `Parameters without a description: ${missing.join(', ')}.`, {
            parameters: missing,
          }),
        );
      }
    }
    options.onProgress?.(index + 1, tools.length);
  });
  const counts = Object.fromEntries(Object.keys(LINT_CODES).map((code) => [code, 0])) as Record<LintCode, number>;
  for (const item of findings) counts[item.code] += 1;
  return { tools: tools.length, findings, counts, servers: serverScores(tools, findings) };
}

function serverScores(tools: readonly SessionTool[], findings: readonly Finding[]): ServerScore[] {
  const penalties = new Map<string, number>();
  for (const item of findings) penalties.set(item.tool, (penalties.get(item.tool) ?? 0) + PENALTY[item.severity]);
  const byServer = new Map<string, { total: number; tools: number; findings: number }>();
  for (const tool of tools) {
    const entry = byServer.get(tool.label) ?? { total: 0, tools: 0, findings: 0 };
    entry.total += Math.max(0, 100 - (penalties.get(tool.name) ?? 0));
    entry.tools += 1;
    byServer.set(tool.label, entry);
  }
  for (const item of findings) {
    const entry = byServer.get(item.server);
    if (entry) entry.findings += 1;
  }
  return [...byServer]
    .map(([server, entry]) => ({
      server,
      tools: entry.tools,
      score: Math.round(entry.total / entry.tools),
      findings: entry.findings,
    }))
    .sort((a, b) => a.score - b.score || (a.server < b.server ? -1 : 1));
}
