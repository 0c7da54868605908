import type { ActivityEvent } from '@toolsearch/proto';
import { CliError } from '../cli-error';
import { intOption, JSON_OPTION, parseCommandArgs } from '../command-args';
import type { CliIo } from '../io';
import type { Command } from '../command';
import { DAEMON_OPTIONS, DAEMON_OPTIONS_USAGE, withDaemon } from '../operator/daemon-connection';
import { formatTable, formatTime } from '../operator/table';

const USAGE = `Usage: toolsearch activity [--session SESSION] [--limit N] [--json] [connection]
       toolsearch activity --follow [--session SESSION] [--count N] [--json] [connection]

Calls the tenant's sessions made, under the real tool names (never the tool_call wrapper).
Without --follow: the newest trace records from the audit log (outcome, duration, retries,
approval id). With --follow: a live feed of calls starting and finishing, until Ctrl-C or, with
--count, after N events. --json prints one JSON object per line.

${DAEMON_OPTIONS_USAGE}`;

function eventLine(event: ActivityEvent): string {
  const time = formatTime(event.at);
  const tail =
    event.phase === 'finish'
      ? ` ${event.outcome ?? ''}${event.duration_ms !== undefined ? ` ${event.duration_ms.toFixed(1)} ms` : ''}`
      : '';
  const approval = event.approval_id !== undefined ? ` approval=${event.approval_id}` : '';
  return `${time}  ${event.session}  ${event.phase.padEnd(6)}  ${event.tool}${tail}${approval}\n`;
}

export const activityCommand: Command = {
  summary: 'recent calls from the audit log, or a live feed with --follow (over NATS)',
  usage: USAGE,
  async run(args: string[], io: CliIo): Promise<number> {
    const { values, positionals } = parseCommandArgs(args, {
      ...DAEMON_OPTIONS,
      ...JSON_OPTION,
      follow: { type: 'boolean', default: false },
      session: { type: 'string' },
      limit: { type: 'string' },
      count: { type: 'string' },
    });
    if (positionals.length > 0) throw new CliError(`unexpected argument '${positionals[0]}'.\n\n${USAGE}`);
    const limit = intOption(values.limit, '--limit', 1, 10_000);
    const count = intOption(values.count, '--count', 1, 1_000_000);
    if (!values.follow) {
      if (count !== undefined) throw new CliError('--count goes with --follow.');
      const { records } = await withDaemon(values, io, ({ client }) =>
        client.recentActivity({
          ...(values.session !== undefined ? { session: values.session } : {}),
          ...(limit !== undefined ? { limit } : {}),
        }),
      );
      if (values.json) {
        for (const record of records) io.out(`${JSON.stringify(record)}\n`);
        return 0;
      }
      io.out(
        formatTable(
          ['AT (UTC)', 'SESSION', 'TOOL', 'OUTCOME', 'MS', 'RETRIES', 'APPROVAL'],
          records.map((record) => [
            formatTime(record.at),
            record.session,
            record.tool,
            record.outcome,
            record.duration_ms.toFixed(1),
            String(record.retries),
            record.approval_id || '-',
          ]),
        ),
      );
      return 0;
    }
    if (limit !== undefined) throw new CliError('--limit is for the audit log; with --follow use --count.');
    await withDaemon(values, io, async ({ client, nc }) => {
      let seen = 0;
      await new Promise<void>((resolve) => {
        const stop = () => resolve();
        process.once('SIGINT', stop);
        const subscription = client.onActivity(values.session ?? '*', (event) => {
          io.out(values.json ? `${JSON.stringify(event)}\n` : eventLine(event));
          seen += 1;
          if (count !== undefined && seen >= count) {
            subscription.unsubscribe();
            process.off('SIGINT', stop);
            resolve();
          }
        });
        // Closed underneath us (NATS went away for good): stop rather than hang.
        void nc.closed().then(() => {
          process.off('SIGINT', stop);
          resolve();
        });
        // Tell whoever started us that the feed is live (scripts wait for this line on stderr).
        void nc.flush().then(() => io.err(`following activity of tenant '${client.tenant}' (Ctrl-C stops)\n`));
      });
    });
    return 0;
  },
};
