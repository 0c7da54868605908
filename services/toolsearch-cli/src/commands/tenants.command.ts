import { CliError } from '../cli-error';
import { JSON_OPTION, parseCommandArgs } from '../command-args';
import type { CliIo } from '../io';
import type { Command } from '../command';
import { DAEMON_OPTIONS, DAEMON_OPTIONS_USAGE, withDaemon } from '../operator/daemon-connection';
import { formatTable } from '../operator/table';

const USAGE = `Usage: toolsearch tenants show [--json] [connection]

show: the tenant's usage of each quota against its limit (open sessions and their stored bytes,
toolsets, tools, toolset bytes, MCP servers, held calls, requests in the current second). Needs an
operator key.

${DAEMON_OPTIONS_USAGE}`;

export const tenantsCommand: Command = {
  summary: "show a tenant's quotas and what it uses of them (over NATS)",
  usage: USAGE,
  async run(args: string[], io: CliIo): Promise<number> {
    const { values, positionals } = parseCommandArgs(args, { ...DAEMON_OPTIONS, ...JSON_OPTION });
    const [action, ...extra] = positionals;
    if (action !== 'show' || extra.length > 0) throw new CliError(`say 'tenants show'.\n\n${USAGE}`);
    const reply = await withDaemon(values, io, ({ client }) => client.showTenant());
    if (values.json) {
      io.out(`${JSON.stringify({ tenant: reply.tenant, quotas: reply.quotas }, null, 2)}\n`);
      return 0;
    }
    io.out(
      formatTable(
        ['QUOTA', 'USED', 'LIMIT', 'USE'],
        Object.entries(reply.quotas).map(([name, { used, limit }]) => [
          name,
          String(used),
          String(limit),
          `${Math.round((100 * used) / limit)}%`,
        ]),
      ),
    );
    return 0;
  },
};
