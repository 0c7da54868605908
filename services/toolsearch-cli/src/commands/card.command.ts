import { formatCard, toolCard } from '@toolsearch/quality';
import { lookupTool } from '@toolsearch/bridge';
import { CliError } from '../cli-error';
import { CATALOG_OPTION, JSON_OPTION, parseCommandArgs } from '../command-args';
import type { CliIo } from '../io';
import type { Command } from '../command';
import { sessionFromCatalogs } from '../session-from-catalogs';

const USAGE = `Usage: toolsearch card --catalog FILE... [--json] NAME...

Prints each tool's card: what it does, when to use it (and not), its arguments (type, example,
required), what it returns, and its risk with where the risk comes from; plus tags and source.
NAME is a model-facing name (github__create_issue) as search and the listing show it.`;

export const cardCommand: Command = {
  summary: 'show tool cards: what, when, arguments, returns, risk',
  usage: USAGE,
  run(args: string[], io: CliIo): number {
    const { values, positionals } = parseCommandArgs(args, { ...CATALOG_OPTION, ...JSON_OPTION });
    if (positionals.length === 0)
      throw new CliError(
        'give at least one tool name, for example: toolsearch card --catalog tools.jsonl github__create_issue',
      );
    const { session } = sessionFromCatalogs(values.catalog ?? [], undefined, io);
    const cards = positionals.map((name) => {
      const tool = lookupTool(session, name);
      if (tool === undefined)
        throw new CliError(
          `no tool named '${name}' in these catalogs (use the model-facing name, as toolsearch search shows it).`,
        );
      return toolCard(tool);
    });
    io.out(values.json ? `${JSON.stringify(cards, null, 2)}\n` : cards.map(formatCard).join('\n'));
    return 0;
  },
};
