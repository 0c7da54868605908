import { readFileSync } from 'node:fs';
import {
  errorPayload,
  handleToolSearch,
  type BridgeSession,
  type QueryExplanation,
  type ToolSearchResult,
} from '@toolsearch/bridge';
import type { HitExplanation } from '@toolsearch/search';
import { CliError } from '../cli-error';
import { readInteger } from '../inputs';
import { CATALOG_OPTION, JSON_OPTION, parseCommandArgs } from '../command-args';
import type { CliIo } from '../io';
import type { Command } from '../command';
import { sessionFromCatalogs } from '../session-from-catalogs';

const USAGE = `Usage: toolsearch search --catalog FILE... [--limit N] [--config FILE] [--json] [--explain] QUERY...
       toolsearch search --catalog FILE... --queries-file Q.jsonl [--limit N]

The first form answers like the model's tool_search: matches per query and one shared map of the
matched tools. With --json every match also names its server and the tool's original name.
--explain adds, per match, the query terms it matched, in which fields, what each contributed,
the rewards on top, and any routing rule (from --config) that moved it.

The second form reads a JSON Lines file with a "query" per line and writes one JSON line per query:
{"query": ..., "matches": [{"name", "server", "tool", "score"}]} (for evaluations run elsewhere;
no cap on the number of queries).`;

function matchDetail(session: BridgeSession, name: string, score: number | undefined) {
  const tool = session.table.byName.get(name);
  return {
    name,
    server: tool?.label ?? '',
    tool: tool?.originalName ?? name,
    score: score === undefined || !Number.isFinite(score) ? null : Number(score.toFixed(4)),
  };
}

function readable(result: ToolSearchResult): string {
  const lines: string[] = [`${result.total_available} tools searched`];
  for (const group of result.results) {
    lines.push('', `"${group.query}"`);
    if (group.matches.length === 0) {
      if (group.closest_sources !== undefined)
        lines.push(`  no good match; nearest sources: ${group.closest_sources.join(', ')}`);
      lines.push(
        '  no match; connected sources: ' +
          (group.available_sources ?? []).map((source) => `${source.name} (${source.tool_count})`).join(', '),
      );
    }
    group.matches.forEach((name, index) => {
      const record = result.tools[name];
      const description = (record?.description ?? '').replace(/\s+/g, ' ').slice(0, 100);
      lines.push(`  ${index + 1}. ${name}  [${record?.source_name ?? ''}]  ${description}`);
    });
  }
  return `${lines.join('\n')}\n`;
}

/** How an added term came into the query, with its weight. */
function origin(term: HitExplanation['terms'][number]): string {
  if (term.origin === 'query') return term.weight < 1 ? `; learned weight ${term.weight}` : '';
  if (term.origin === 'implied') return '; implied by the request';
  if (term.origin === 'value') return `; the request holds ${term.from}, weight ${term.weight}`;
  const what = {
    translation: 'translates',
    synonym: 'also translates',
    typo: 'typo correction of',
    glossary: 'glossary rendering of',
    association: 'learned from',
    related: 'learned from requests saying',
  }[term.origin];
  return `; ${what} "${term.from}", weight ${term.weight}`;
}

function explanation(explain: readonly QueryExplanation[]): string {
  const lines: string[] = ['', 'why:'];
  for (const group of explain) {
    lines.push(
      `"${group.query}"  confidence ${group.confidence.toFixed(3)}` +
        (group.contextSupport === undefined ? '' : `; context check ${group.contextSupport.toFixed(3)}`) +
        (group.exampleScore === undefined
          ? ''
          : `; best example request ${group.exampleScore.toFixed(3)}` +
            (group.exampleShare === undefined
              ? ''
              : ` (says ${Math.round(group.exampleShare * 100)}% of the request)`)) +
        (group.nothingScore === undefined
          ? ''
          : `; reads like a request no tool serves (example score ${group.nothingScore.toFixed(3)})`) +
        (group.rescued === true ? '; doubtful, given because an example request matches it closely' : '') +
        (group.abstained ? `; no good match, withheld: ${group.nearest.join(', ')}` : ''),
    );
    for (const match of group.matches) {
      lines.push(
        `  ${match.rank}. ${match.name}: ${match.why}${match.rules.length > 0 ? `; moved by ${match.rules.join(', ')}` : ''}`,
      );
      for (const term of match.terms) {
        const fields = Object.entries(term.fields)
          .map(([field, count]) => `${field}×${count}`)
          .join(' ');
        lines.push(
          `       ${term.term.padEnd(16)} +${term.contribution.toFixed(3)}  (idf ${term.idf.toFixed(2)}; ${fields || 'no field'}${origin(term)})`,
        );
      }
    }
  }
  return `${lines.join('\n')}\n`;
}

function runQueryFile(session: BridgeSession, path: string, limit: number, io: CliIo): number {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read queries ${path}: ${(error as Error).message}`, { cause: error });
  }
  const out: string[] = [];
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    let query: unknown;
    try {
      query = (JSON.parse(line) as { query?: unknown }).query;
    } catch (error) {
      throw new CliError(`${path}:${index + 1}: not valid JSON (${(error as Error).message})`);
    }
    if (typeof query !== 'string') throw new CliError(`${path}:${index + 1}: query must be a string`);
    const matches = session.engine.search(query, limit).map((hit) => matchDetail(session, hit.name, hit.score));
    out.push(JSON.stringify({ query, matches }));
  });
  io.out(out.length > 0 ? `${out.join('\n')}\n` : '');
  return 0;
}

export const searchCommand: Command = {
  summary: "search catalogs the way the model's tool_search does",
  usage: USAGE,
  run(args: string[], io: CliIo): number {
    const { values, positionals } = parseCommandArgs(args, {
      ...CATALOG_OPTION,
      ...JSON_OPTION,
      limit: { type: 'string' },
      config: { type: 'string' },
      'queries-file': { type: 'string' },
      explain: { type: 'boolean', default: false },
    });
    const { session, config } = sessionFromCatalogs(values.catalog ?? [], values.config, io);
    const limit = readInteger('--limit', values.limit, 1, 1000);
    if (values['queries-file'] !== undefined) {
      if (positionals.length > 0)
        throw new CliError('give queries either as arguments or with --queries-file, not both.');
      return runQueryFile(session, values['queries-file'], limit ?? config.search_default_limit, io);
    }
    if (positionals.length === 0)
      throw new CliError(
        'give at least one query, for example: toolsearch search --catalog tools.jsonl "github create issue"',
      );
    if (limit !== undefined && limit > config.max_search_limit) {
      throw new CliError(
        `--limit must be at most ${config.max_search_limit} (max_search_limit); use --queries-file for deeper lists.`,
      );
    }
    const outcome = handleToolSearch(
      session,
      { queries: positionals, ...(limit !== undefined ? { limit } : {}) },
      { explain: values.explain },
    );
    if (!outcome.ok) throw new CliError(errorPayload(outcome.error)['error'] as string);
    const { result, details } = outcome;
    if (!values.json) {
      io.out(readable(result));
      if (outcome.explain !== undefined) io.out(explanation(outcome.explain));
      return 0;
    }
    const enriched = {
      ...result,
      results: result.results.map((group) => ({
        ...group,
        matches: group.matches.map((name) => ({
          ...matchDetail(session, name, details.get(name)?.score),
          reason: details.get(name)?.reason,
        })),
      })),
    };
    io.out(
      `${JSON.stringify(outcome.explain !== undefined ? { ...enriched, explain: outcome.explain } : enriched, null, 2)}\n`,
    );
    return 0;
  },
};
