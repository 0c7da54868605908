import { handleToolDescribe } from '@toolsearch/bridge';
import { CliError } from '../cli-error';
import { CATALOG_OPTION, parseCommandArgs } from '../command-args';
import type { CliIo } from '../io';
import type { Command } from '../command';
import { sessionFromCatalogs } from '../session-from-catalogs';

const USAGE = `Usage: toolsearch describe --catalog FILE... [--config FILE] NAME...

Prints what the model's tool_describe returns for these model-facing names (as JSON): the full
schemas, not_found with suggestions, and errors.`;

export const describeCommand: Command = {
  summary: "show full schemas the way the model's tool_describe does",
  usage: USAGE,
  run(args: string[], io: CliIo): number {
    const { values, positionals } = parseCommandArgs(args, { ...CATALOG_OPTION, config: { type: 'string' } });
    if (positionals.length === 0)
      throw new CliError(
        'give at least one tool name, for example: toolsearch describe --catalog tools.jsonl github__create_issue',
      );
    const { session } = sessionFromCatalogs(values.catalog ?? [], values.config, io);
    const outcome = handleToolDescribe(session, { names: positionals });
    if (!outcome.ok) throw new CliError(outcome.error.message);
    io.out(`${JSON.stringify(outcome.result, null, 2)}\n`);
    return 0;
  },
};
