import { assembleSession, isToolFormat, type AssemblyResult } from '@toolsearch/disclosure';
import { isEncodingName, DEFAULT_ENCODING } from '@toolsearch/tokens';
import { CliError } from '../cli-error';
import { loadCatalogs, loadConfig, readInteger } from '../inputs';
import { CATALOG_OPTION, JSON_OPTION, parseCommandArgs } from '../command-args';
import type { CliIo } from '../io';
import type { Command } from '../command';

const USAGE = `Usage: toolsearch assemble --catalog FILE... --context N [options]

Builds the tool array a model would see for a session holding every tool of the catalog files.

Options:
  --catalog FILE    a catalog in JSON Lines (server, name, description, inputSchema); repeat it or
                    list more files after it to combine catalogs
  --context N       the model's context window in tokens (200000, 200k, 1m); 0 = unknown
  --config FILE     YAML or JSON with the tool_search settings (under tools.tool_search or top level)
  --encoding NAME   o200k_base (default) or cl100k_base
  --format NAME     openai (default), anthropic or mcp
  --json            print the whole result as JSON
Environment: ENABLE_TOOL_SEARCH=true|false|auto|auto:N overrides the config's 'enabled'.`;

function summary(result: AssemblyResult, toolCount: number, contextTokens: number): string {
  const lines = [
    `tier ${result.tier}  ${result.activated ? `bridge on (${result.mode})` : `bridge off (${result.mode})`}  listing: ${result.listing_form}`,
    `tools: ${toolCount} in catalog, ${result.visible_count} direct, ${result.deferred_count} deferred`,
    `budget: ${result.budget_tokens} tokens (context ${contextTokens || 'unknown'})`,
    `tokens (${result.encoding}): listing ${result.listing_tokens}, tool array ${result.tools_tokens}, deferrable schemas ${result.deferred_tokens}`,
    `format: ${result.format}  hash: ${result.hash}`,
  ];
  if (result.collapsed.length > 0) lines.push(`summarised sources: ${result.collapsed.length}`);
  if (result.listing !== null) lines.push('', result.listing);
  return `${lines.join('\n')}\n`;
}

export const assembleCommand: Command = {
  summary: 'show the tool array, tier and listing a session with these catalogs would get',
  usage: USAGE,
  run(args: string[], io: CliIo): number {
    const { values, positionals } = parseCommandArgs(args, {
      ...CATALOG_OPTION,
      ...JSON_OPTION,
      context: { type: 'string' },
      config: { type: 'string' },
      encoding: { type: 'string' },
      format: { type: 'string' },
    });
    const contextTokens = readInteger('--context', values.context, 0, 100_000_000);
    if (contextTokens === undefined)
      throw new CliError("--context is required: the model's context window in tokens (0 if unknown).");
    const encoding = values.encoding ?? DEFAULT_ENCODING;
    if (!isEncodingName(encoding))
      throw new CliError(`--encoding must be o200k_base or cl100k_base, not ${JSON.stringify(encoding)}.`);
    const format = values.format ?? 'openai';
    if (!isToolFormat(format))
      throw new CliError(`--format must be openai, anthropic or mcp, not ${JSON.stringify(format)}.`);
    const { toolsets, toolCount } = loadCatalogs([...(values.catalog ?? []), ...positionals]);
    const { config, warnings } = loadConfig(values.config, io.env);
    for (const warning of warnings) io.err(`warning: ${warning}\n`);
    const { result } = assembleSession({ toolsets, config, contextTokens, encoding, format });
    io.out(
      values.json ? `${JSON.stringify({ ...result, warnings }, null, 2)}\n` : summary(result, toolCount, contextTokens),
    );
    return 0;
  },
};
