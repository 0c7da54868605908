import type { ToolsearchClient } from '@toolsearch/client';
import type { Approval } from '@toolsearch/proto';
import { CliError } from '../cli-error';
import { intOption, JSON_OPTION, parseCommandArgs } from '../command-args';
import type { CliIo } from '../io';
import type { Command } from '../command';
import { DAEMON_OPTIONS, DAEMON_OPTIONS_USAGE, withDaemon } from '../operator/daemon-connection';
import { formatTable, formatTime } from '../operator/table';

const USAGE = `Usage: toolsearch approvals list [--session SESSION] [--tool PATTERN] [--json] [connection]
       toolsearch approvals get ID [--json] [connection]
       toolsearch approvals approve ID [--reason TEXT] [--wait MS] [--json] [connection]
       toolsearch approvals deny ID [--reason TEXT] [--json] [connection]

list: held calls waiting for a decision, oldest first, with their arguments' digest.
get: one held call, its state, the decision and, once it ran, its result.
approve / deny: decide one held call. The decision quotes the tool and argument digest the daemon
holds, so it cannot apply to anything else. Who decides is proved by the approver credential in
$TOOLSEARCH_CREDENTIAL (a key with the 'approver' role); the daemon records that credential's
name. --wait waits up to MS for an approved call to run and prints its result (the decision is
made at once; the wait is spent asking after the call, so it may be longer than --timeout).

${DAEMON_OPTIONS_USAGE}`;

function brief(value: unknown, max = 60): string {
  const text = JSON.stringify(value) ?? '';
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The approval once its call has a result or cannot get one, or as it is when `waitMs` has passed. */
async function outcome(client: ToolsearchClient, approval: Approval, waitMs: number): Promise<Approval> {
  const deadline = Date.now() + waitMs;
  let current = approval;
  while (current.result === undefined && current.state === 'approved' && Date.now() < deadline) {
    await sleep(Math.min(200, Math.max(1, deadline - Date.now())));
    current = (await client.getApproval(current.id)).approval;
  }
  return current;
}

/** An approval as lines of text: the call, its state and decision, and its result once it ran. */
function describe(approval: Approval, verb?: string): string {
  const lines = [
    `${verb !== undefined ? `${verb} ` : ''}${approval.id}: ${approval.tool} ${brief(approval.arguments)} (state ${approval.state}${approval.decision !== undefined ? `, by ${approval.decision.by}` : ''})`,
  ];
  if (approval.result !== undefined)
    lines.push(
      approval.result.ok
        ? `result: ${brief(approval.result.data, 400)}`
        : `result: ${approval.result.error?.code ?? 'error'}: ${approval.result.error?.message ?? ''}`,
    );
  else if (approval.state === 'approved') lines.push('result: not yet (the call has not finished; ask again with get)');
  return `${lines.join('\n')}\n`;
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
    if (action === 'get') {
      if (id === undefined) throw new CliError(`name the held call: toolsearch approvals get ID.\n\n${USAGE}`);
      const { approval } = await withDaemon(values, io, ({ client }) => client.getApproval(id));
      io.out(values.json ? `${JSON.stringify({ approval }, null, 2)}\n` : describe(approval));
      return 0;
    }
    if (action === 'approve' || action === 'deny') {
      if (id === undefined) throw new CliError(`name the held call: toolsearch approvals ${action} ID.\n\n${USAGE}`);
      const waitMs = intOption(values.wait, '--wait (milliseconds)', 0, 600_000) ?? 0;
      const approval: Approval = await withDaemon(values, io, async ({ client }) => {
        const { approval: held } = await client.getApproval(id);
        const { approval: decided } = await client.decide(id, {
          decision: action,
          reason: values.reason ?? '',
          tool: held.tool,
          digest: held.digest,
          wait_ms: 0,
        });
        return action === 'approve' ? outcome(client, decided, waitMs) : decided;
      });
      io.out(
        values.json
          ? `${JSON.stringify({ approval }, null, 2)}\n`
          : describe(approval, action === 'approve' ? 'approved' : 'denied'),
      );
      return 0;
    }
    throw new CliError(`say 'list', 'get', 'approve' or 'deny'.\n\n${USAGE}`);
  },
};
