import {
  LINT_CODES,
  lintCatalog,
  POISON_CODES,
  scanCatalogForPoisoning,
  type LintReport,
  type PoisoningReport,
} from '@toolsearch/quality';
import { CATALOG_OPTION, JSON_OPTION, parseCommandArgs } from '../command-args';
import type { CliIo } from '../io';
import type { Command } from '../command';
import { sessionFromCatalogs } from '../session-from-catalogs';

const USAGE = `Usage: toolsearch lint --catalog FILE... [--json] [--limit N] [--allow-host HOST]...

Reports what hurts each tool's discovery: empty or very short descriptions, names that say
nothing, tools their own key words do not find, confusable pairs (with the terms that would
separate them), write tools without a risk level, parameters without descriptions. Each finding
has a code, a severity and a one-line fix; every server gets a score out of 100.

Also scans every definition for tool poisoning (text written to steer the model): orders to the
model in English, Japanese or Chinese, requests for credential files or secrets, other servers'
tools, invisible or reordering characters, look-alike names, oversized text and links. Each
finding has a severity (high, medium, low), the JSON path of the field, the character span and
the text found (hidden characters shown). Links to an --allow-host host (or its subdomains) pass.
--limit N caps the findings printed in the readable form (default 40; --json prints all).`;

function readable(report: LintReport, limit: number): string {
  const lines = [`${report.tools} tools, ${report.findings.length} findings`, '', 'findings by code:'];
  for (const [code, count] of Object.entries(report.counts)) {
    lines.push(
      `  ${code.padEnd(26)} ${String(count).padStart(6)}  (${LINT_CODES[code as keyof typeof LINT_CODES].severity})`,
    );
  }
  lines.push('', 'lowest-scoring servers:');
  for (const server of report.servers.slice(0, 10))
    lines.push(
      `  ${String(server.score).padStart(3)}  ${server.server} (${server.tools} tools, ${server.findings} findings)`,
    );
  lines.push('', 'findings:');
  for (const finding of report.findings.slice(0, limit)) {
    lines.push(`  ${finding.severity.padEnd(7)} ${finding.code.padEnd(26)} ${finding.tool}: ${finding.message}`);
    const separating = finding.details?.['separating'] as Record<string, string[]> | undefined;
    if (separating !== undefined) {
      lines.push(
        `          only in one of them: ${Object.entries(separating)
          .map(([name, terms]) => `${name}: ${terms.join(' ') || '—'}`)
          .join('; ')}`,
      );
    }
    lines.push(`          fix: ${finding.fix}`);
  }
  if (report.findings.length > limit) lines.push(`  … ${report.findings.length - limit} more (--json for all)`);
  return `${lines.join('\n')}\n`;
}

function readablePoisoning(report: PoisoningReport, limit: number): string {
  const { high, medium, low } = report.bySeverity;
  const lines = [
    '',
    `poisoning: ${report.highTools} tools with high findings; ${high} high, ${medium} medium, ${low} low`,
  ];
  for (const [code, count] of Object.entries(report.byCode)) {
    if (count > 0)
      lines.push(
        `  ${code.padEnd(26)} ${String(count).padStart(6)}  (${POISON_CODES[code as keyof typeof POISON_CODES].severity})`,
      );
  }
  for (const finding of report.findings.slice(0, limit)) {
    lines.push(
      `  ${finding.severity.padEnd(7)} ${finding.code.padEnd(26)} ${finding.tool} ${finding.field} [${finding.span.start}, ${finding.span.end}): ${JSON.stringify(finding.excerpt)}`,
    );
    lines.push(`          fix: ${finding.fix}`);
  }
  if (report.findings.length > limit) lines.push(`  … ${report.findings.length - limit} more (--json for all)`);
  return `${lines.join('\n')}\n`;
}

export const lintCommand: Command = {
  summary: 'lint catalogs for what hurts discovery, with fixes and server scores',
  usage: USAGE,
  run(args: string[], io: CliIo): number {
    const { values, positionals } = parseCommandArgs(args, {
      ...CATALOG_OPTION,
      ...JSON_OPTION,
      limit: { type: 'string' },
      'allow-host': { type: 'string', multiple: true },
    });
    const limit = Number(values.limit ?? 40);
    const { session } = sessionFromCatalogs([...(values.catalog ?? []), ...positionals], undefined, io);
    let lastDrawn = 0;
    const report = lintCatalog(session.table.deferred, {
      onProgress: (done, total) => {
        // A progress bar on a terminal only, at most every 2 %.
        if (!io.isTty || (done - lastDrawn < total / 50 && done !== total)) return;
        lastDrawn = done;
        const width = 30;
        const filled = Math.round((done / total) * width);
        io.err(`\r[${'#'.repeat(filled)}${' '.repeat(width - filled)}] ${done}/${total}${done === total ? '\n' : ''}`);
      },
    });
    const poisoning = scanCatalogForPoisoning([...session.table.visible, ...session.table.deferred], {
      allowedHosts: values['allow-host'] ?? [],
    });
    const shown = Number.isInteger(limit) && limit >= 0 ? limit : 40;
    io.out(
      values.json
        ? `${JSON.stringify({ ...report, poisoning }, null, 2)}\n`
        : readable(report, shown) + readablePoisoning(poisoning, shown),
    );
    return 0;
  },
};
