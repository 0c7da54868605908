import { CliError } from '../cli-error';
import { JSON_OPTION, parseCommandArgs } from '../command-args';
import type { CliIo } from '../io';
import type { Command } from '../main';
import { DAEMON_OPTIONS, DAEMON_OPTIONS_USAGE, withDaemon } from '../operator/daemon-connection';
import { formatTable } from '../operator/table';

const USAGE = `Usage: toolsearch toolsets list [--json] [connection]

The tenant's toolsets in the daemon's registry: kind, label, tool count, registry revision, and
whether the source is reachable (an MCP server that went away shows why).

${DAEMON_OPTIONS_USAGE}`;

export const toolsetsCommand: Command = {
  summary: "list a tenant's toolsets with tool counts and availability (over NATS)",
  usage: USAGE,
  async run(args: string[], io: CliIo): Promise<number> {
    const { values, positionals } = parseCommandArgs(args, { ...DAEMON_OPTIONS, ...JSON_OPTION });
    if (positionals[0] !== 'list' || positionals.length > 1) throw new CliError(`say 'list'.\n\n${USAGE}`);
    const { toolsets } = await withDaemon(values, io, ({ client }) => client.listToolsets());
    if (values.json) {
      io.out(`${JSON.stringify({ toolsets }, null, 2)}\n`);
      return 0;
    }
    io.out(
      formatTable(
        ['TOOLSET', 'KIND', 'LABEL', 'TOOLS', 'REVISION', 'STATUS'],
        toolsets.map((toolset) => [
          toolset.id,
          toolset.kind,
          toolset.label ?? '-',
          String(toolset.tools),
          String(toolset.revision),
          toolset.unavailable === undefined ? 'available' : `unavailable: ${toolset.unavailable}`,
        ]),
      ),
    );
    return 0;
  },
};
