import { ENDPOINTS, type ReviewItem } from '@toolsearch/proto';
import { CliError } from '../cli-error';
import type { CliIo } from '../io';
import { withDaemon } from '../operator/daemon-connection';

type DaemonValues = { nats?: string; tenant?: string; timeout?: string };

/** Lines of context kept around each changed line of a diff. */
const CONTEXT = 2;

/** The changed lines of a diff with a little context; runs of unchanged lines become `…`. */
function changedLines(diff: readonly string[]): string[] {
  const keep = diff.map((line, index) =>
    diff.slice(Math.max(0, index - CONTEXT), index + CONTEXT + 1).some((near) => !near.startsWith('  ')),
  );
  const out: string[] = [];
  diff.forEach((line, index) => {
    if (keep[index]) out.push(line);
    else if (out[out.length - 1] !== '  …') out.push('  …');
  });
  return out;
}

function formatItem(toolset: string, item: ReviewItem): string {
  const what =
    item.kind === 'change'
      ? `changed${item.risk_relevant ? ' (risk-relevant: sessions see no definition until accepted)' : ' (sessions keep the pinned text)'}`
      : 'quarantined';
  const lines = [
    `${toolset} ${item.tool}: ${what}`,
    `  digest ${item.before === '' ? '(not pinned)' : item.before.slice(0, 16)} -> ${item.after.slice(0, 16)}`,
    ...item.findings.map(
      (finding) =>
        `  ${finding.severity.toUpperCase()} ${finding.code} ${finding.field}: ${JSON.stringify(finding.excerpt)}`,
    ),
    ...(item.kind === 'change' ? changedLines(item.diff).map((line) => `  ${line}`) : []),
  ];
  return `${lines.join('\n')}\n`;
}

/** `toolsets diff [TOOLSET]`: what waits for an operator, with findings and line diffs. */
export async function toolsetsDiff(values: DaemonValues & { json?: boolean }, toolset: string | undefined, io: CliIo) {
  const reply = await withDaemon(values, io, ({ client }) =>
    client.call(ENDPOINTS.toolsetsDiff, toolset !== undefined ? { toolset } : {}),
  );
  if (values.json) {
    io.out(`${JSON.stringify({ toolsets: reply.toolsets }, null, 2)}\n`);
    return 0;
  }
  let count = 0;
  for (const entry of reply.toolsets)
    for (const item of entry.items) {
      io.out(formatItem(entry.toolset, item));
      count += 1;
    }
  io.out(
    `${count} definition(s) waiting for review${count > 0 ? '; accept with `toolsearch toolsets accept TOOLSET [TOOL…]`' : ''}\n`,
  );
  return 0;
}

/**
 * `toolsets accept TOOLSET [TOOL…]`: accepts what `diff` shows now, quoting each item's digest, so
 * a definition that changed again since is not accepted unseen (it is reported as stale).
 */
export async function toolsetsAccept(
  values: DaemonValues & { json?: boolean },
  toolset: string | undefined,
  tools: readonly string[],
  io: CliIo,
) {
  if (toolset === undefined) throw new CliError('say which toolset: toolsearch toolsets accept TOOLSET [TOOL…]');
  const reply = await withDaemon(values, io, async ({ client }) => {
    const { toolsets } = await client.call(ENDPOINTS.toolsetsDiff, { toolset });
    const items = (toolsets[0]?.items ?? []).filter((item) => tools.length === 0 || tools.includes(item.tool));
    if (items.length === 0)
      throw new CliError(
        `nothing of '${toolset}'${tools.length > 0 ? ` (${tools.join(', ')})` : ''} waits for review.`,
      );
    return client.call(ENDPOINTS.toolsetsAccept, {
      toolset,
      tools: items.map((item) => item.tool),
      digests: Object.fromEntries(items.map((item) => [item.tool, item.after])),
    });
  });
  if (values.json) {
    io.out(`${JSON.stringify(reply, null, 2)}\n`);
    return 0;
  }
  for (const item of reply.accepted)
    io.out(
      `accepted ${toolset} ${item.tool} (${item.kind}): ${item.before.slice(0, 16) || '(not pinned)'} -> ${item.after.slice(0, 16)}\n`,
    );
  if (reply.stale.length > 0)
    io.out(`changed again since it was shown, not accepted (run diff again): ${reply.stale.join(', ')}\n`);
  io.out(`toolset ${toolset} stored at revision ${reply.revision}\n`);
  return reply.stale.length > 0 ? 1 : 0;
}
