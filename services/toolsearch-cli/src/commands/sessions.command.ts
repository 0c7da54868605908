import { SessionRoleSchema } from '@toolsearch/proto';
import { CliError } from '../cli-error';
import { intOption, JSON_OPTION, parseCommandArgs } from '../command-args';
import type { CliIo } from '../io';
import type { Command } from '../command';
import { DAEMON_OPTIONS, DAEMON_OPTIONS_USAGE, withDaemon } from '../operator/daemon-connection';
import { formatFields, formatTable, formatTime } from '../operator/table';

const USAGE = `Usage: toolsearch sessions list [--role ROLE] [--limit N] [--json] [connection]
       toolsearch sessions show SESSION [--json] [connection]

list: the tenant's open sessions, newest first (role, parent, granted toolsets, context window).
show: one session — grant, model, children, core tools, and its current tier and token counts.

${DAEMON_OPTIONS_USAGE}`;

export const sessionsCommand: Command = {
  summary: "list a tenant's open sessions, or show one (over NATS)",
  usage: USAGE,
  async run(args: string[], io: CliIo): Promise<number> {
    const { values, positionals } = parseCommandArgs(args, {
      ...DAEMON_OPTIONS,
      ...JSON_OPTION,
      role: { type: 'string' },
      limit: { type: 'string' },
    });
    const [action, id, ...extra] = positionals;
    if (extra.length > 0) throw new CliError(`unexpected argument '${extra[0]}'.\n\n${USAGE}`);
    if (action === 'list') {
      const role = values.role === undefined ? undefined : SessionRoleSchema.safeParse(values.role);
      if (role !== undefined && !role.success) throw new CliError('--role is one of gateway, subagent, kanban_worker.');
      const limit = intOption(values.limit, '--limit', 1, 10_000);
      const reply = await withDaemon(values, io, ({ client }) =>
        client.listSessions({
          ...(role?.success ? { role: role.data } : {}),
          ...(limit !== undefined ? { limit } : {}),
        }),
      );
      if (values.json) {
        io.out(`${JSON.stringify({ sessions: reply.sessions, total: reply.total }, null, 2)}\n`);
        return 0;
      }
      io.out(
        formatTable(
          ['SESSION', 'ROLE', 'PARENT', 'CONTEXT', 'CREATED (UTC)', 'TOOLSETS'],
          reply.sessions.map((session) => [
            session.id,
            session.role,
            session.parent ?? '-',
            String(session.context_length),
            formatTime(session.created_at),
            session.toolsets.join(',') || '-',
          ]),
        ),
      );
      io.out(`${reply.sessions.length} of ${reply.total} open session(s)\n`);
      return 0;
    }
    if (action === 'show') {
      if (id === undefined) throw new CliError(`name the session: toolsearch sessions show SESSION.\n\n${USAGE}`);
      const reply = await withDaemon(values, io, ({ client }) => client.showSession(id));
      if (values.json) {
        io.out(`${JSON.stringify({ session: reply.session, surface: reply.surface }, null, 2)}\n`);
        return 0;
      }
      const { session, surface } = reply;
      io.out(
        formatFields([
          ['session', session.id],
          ['role', session.role],
          ['parent', session.parent ?? '-'],
          ['created', `${formatTime(session.created_at)} UTC`],
          ['toolsets', session.grant.toolsets.join(', ') || '-'],
          ['allow', session.grant.allow?.join(', ') ?? '(all)'],
          ['deny', session.grant.deny?.join(', ') ?? '-'],
          [
            'model',
            `${session.model.contextLength} tokens${session.model.encoding ? `, ${session.model.encoding}` : ''}`,
          ],
          ['core tools', session.core_tools.join(', ') || '-'],
          ['children', session.children.join(', ') || '-'],
          ['tier', `${surface.tier} (${surface.listing_form} listing, mode ${surface.mode})`],
          ['tools', `${surface.visible_count} direct, ${surface.deferred_count} deferred`],
          [
            'tokens',
            `${surface.tools_tokens} in the tool array, listing ${surface.listing_tokens} of ${surface.budget_tokens}`,
          ],
          ['hash', surface.hash],
        ]),
      );
      return 0;
    }
    throw new CliError(`say 'list' or 'show'.\n\n${USAGE}`);
  },
};
