import type { Approval } from '@toolsearch/proto';
import { CliError } from '../cli-error';
import { intOption, JSON_OPTION, parseCommandArgs } from '../command-args';
import type { CliIo } from '../io';
import type { Command } from '../main';
import { DAEMON_OPTIONS, DAEMON_OPTIONS_USAGE, withDaemon } from '../operator/daemon-connection';
import { formatTable, formatTime } from '../operator/table';

const USAGE = `Usage: toolsearch approvals list [--session SESSION] [--tool PATTERN] [--json] [connection]
       toolsearch approvals approve ID [--reason TEXT] [--wait MS] [--json] [connection]
       toolsearch approvals deny ID [--reason TEXT] [--json] [connection]

list: held calls waiting for a decision, oldest first, with their arguments' digest.
approve / deny: decide one held call. The decision quotes the tool and argument digest the daemon
holds, so it cannot apply to anything else. Who decides is proved by the approver credential in
$TOOLSEARCH_CREDENTIAL (a key with the 'approver' role); the daemon records that credential's
name. --wait waits up to MS for an approved call to run and prints its result.

${DAEMON_OPTIONS_USAGE}`;

function brief(value: unknown, max = 60): string {
  const text = JSON.stringify(value) ?? '';
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

export const approvalsCommand: Command = {
  summary: 'list held calls, approve or deny them (over NATS)',
  usage: USAGE,
  async run(args: string[], io: CliIo): Promise<number> {
    const { values, positionals } = parseCommandArgs(args, {
      ...DAEMON_OPTIONS,
      ...JSON_OPTION,
      session: { type: 'string' },
      tool: { type: 'string' },
      reason: { type: 'string' },
      wait: { type: 'string' },
    });
    const [action, id, ...extra] = positionals;
    if (extra.length > 0) throw new CliError(`unexpected argument '${extra[0]}'.\n\n${USAGE}`);
    if (action === 'list') {
      const { approvals } = await withDaemon(values, io, ({ client }) =>
        client.listApprovals({
          ...(values.session !== undefined ? { session: values.session } : {}),
          ...(values.tool !== undefined ? { tool: values.tool } : {}),
        }),
      );
      if (values.json) {
        io.out(`${JSON.stringify({ approvals }, null, 2)}\n`);
        return 0;
      }
      io.out(
        formatTable(
          ['ID', 'TOOL', 'SESSION', 'EXPIRES (UTC)', 'REASON', 'ARGUMENTS'],
          approvals.map((approval) => [
            approval.id,
            approval.tool,
            approval.session,
            formatTime(approval.expires_at),
            approval.reason,
            brief(approval.arguments),
          ]),
        ),
      );
      io.out(`${approvals.length} held call(s) waiting\n`);
      return 0;
    }
    if (action === 'approve' || action === 'deny') {
      if (id === undefined) throw new CliError(`name the held call: toolsearch approvals ${action} ID.\n\n${USAGE}`);
      const waitMs = intOption(values.wait, '--wait (milliseconds)', 0, 120_000) ?? 0;
      const approval: Approval = await withDaemon(values, io, async ({ client }) => {
        const { approval: held } = await client.getApproval(id);
        const { approval: decided } = await client.decide(id, {
          decision: action,
          reason: values.reason ?? '',
          tool: held.tool,
          digest: held.digest,
          wait_ms: action === 'approve' ? waitMs : 0,
        });
        return decided;
      });
      if (values.json) {
        io.out(`${JSON.stringify({ approval }, null, 2)}\n`);
        return 0;
      }
      io.out(
        `${action === 'approve' ? 'approved' : 'denied'} ${approval.id}: ${approval.tool} ${brief(approval.arguments)} (state ${approval.state}, by ${approval.decision?.by ?? '?'})\n`,
      );
      if (approval.result !== undefined)
        io.out(
          approval.result.ok
            ? `result: ${brief(approval.result.data, 400)}\n`
            : `result: ${approval.result.error?.code ?? 'error'}: ${approval.result.error?.message ?? ''}\n`,
        );
      return 0;
    }
    throw new CliError(`say 'list', 'approve' or 'deny'.\n\n${USAGE}`);
  },
};
