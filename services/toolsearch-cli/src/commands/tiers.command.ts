import { CliError } from '../cli-error';
import { JSON_OPTION, parseCommandArgs } from '../command-args';
import type { CliIo } from '../io';
import type { Command } from '../command';
import { DAEMON_OPTIONS, DAEMON_OPTIONS_USAGE, withDaemon } from '../operator/daemon-connection';
import { formatFields } from '../operator/table';

const USAGE = `Usage: toolsearch tiers show SESSION [--json] [connection]

What the session's model sees on its next turn: the tier (0 every tool direct, 1 bridge with a
listing, 2 bridge without one), the listing's form, how many tools are direct and deferred, and the
token counts against the listing budget. Reading it changes nothing.

${DAEMON_OPTIONS_USAGE}`;

export const tiersCommand: Command = {
  summary: "show a session's tier, listing form and token counts (over NATS)",
  usage: USAGE,
  async run(args: string[], io: CliIo): Promise<number> {
    const { values, positionals } = parseCommandArgs(args, { ...DAEMON_OPTIONS, ...JSON_OPTION });
    const [action, session, ...extra] = positionals;
    if (action !== 'show' || session === undefined || extra.length > 0)
      throw new CliError(`say 'show SESSION'.\n\n${USAGE}`);
    const { surface } = await withDaemon(values, io, ({ client }) => client.showSession(session));
    if (values.json) {
      io.out(`${JSON.stringify({ session, ...surface }, null, 2)}\n`);
      return 0;
    }
    io.out(
      formatFields([
        ['session', session],
        ['tier', String(surface.tier)],
        ['listing', surface.listing_form],
        [
          'mode',
          `${surface.mode}${surface.mode === 'budget' ? (surface.activated ? ' (activated)' : ' (not yet activated)') : ''}`,
        ],
        ['direct tools', String(surface.visible_count)],
        ['deferred tools', `${surface.deferred_count} (${surface.deferred_tokens} tokens of schemas)`],
        ['listing tokens', `${surface.listing_tokens} of a ${surface.budget_tokens}-token budget`],
        ['tool array', `${surface.tools_tokens} tokens`],
        ['hash', surface.hash],
      ]),
    );
    return 0;
  },
};
