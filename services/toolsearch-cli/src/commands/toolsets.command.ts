import { CliError } from '../cli-error';
import { JSON_OPTION, parseCommandArgs } from '../command-args';
import type { CliIo } from '../io';
import type { Command } from '../command';
import { DAEMON_OPTIONS, DAEMON_OPTIONS_USAGE, withDaemon } from '../operator/daemon-connection';
import { formatTable } from '../operator/table';
import { toolsetsAccept, toolsetsDiff } from './toolsets-review';

const USAGE = `Usage: toolsearch toolsets list [--json] [connection]
       toolsearch toolsets diff [TOOLSET] [--json] [connection]
       toolsearch toolsets accept TOOLSET [TOOL…] [--json] [connection]

list: the tenant's toolsets in the daemon's registry: kind, label, tool count, registry revision,
and whether the source is reachable (an MCP server that went away shows why).

diff: tool definitions waiting for an operator (operator key): changes to pinned tools, with a
line diff, and quarantined tools, with the scanner's findings (code, severity, field, text).

accept: pins the changed definitions and releases the quarantined ones that diff shows now (all
of TOOLSET, or the TOOLs named); one that changed again since is reported, not accepted (exit 1).

${DAEMON_OPTIONS_USAGE}`;

export const toolsetsCommand: Command = {
  summary: "list a tenant's toolsets; review and accept changed or quarantined tool definitions (over NATS)",
  usage: USAGE,
  async run(args: string[], io: CliIo): Promise<number> {
    const { values, positionals } = parseCommandArgs(args, { ...DAEMON_OPTIONS, ...JSON_OPTION });
    const [action, toolset, ...tools] = positionals;
    if (action === 'diff' && tools.length === 0) return toolsetsDiff(values, toolset, io);
    if (action === 'accept') return toolsetsAccept(values, toolset, tools, io);
    if (action !== 'list' || positionals.length > 1) throw new CliError(`say 'list', 'diff' or 'accept'.\n\n${USAGE}`);
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
