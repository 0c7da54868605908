import type { SessionTool } from '@toolsearch/catalog';
import { POISON_CODES, type PoisonCode, type PoisonFinding, type PoisonSeverity } from './poison-codes';
import { nameSkeletons, scanToolDefinition } from './scan-tool';

/** A poisoning finding with the tool it was found in. */
export interface ToolPoisonFinding extends PoisonFinding {
  /** The model-facing name. */
  readonly tool: string;
  readonly server: string;
}

export interface PoisoningReport {
  readonly tools: number;
  /** High first, then in catalog order. */
  readonly findings: readonly ToolPoisonFinding[];
  readonly bySeverity: Readonly<Record<PoisonSeverity, number>>;
  readonly byCode: Readonly<Record<PoisonCode, number>>;
  /** Tools with at least one high-severity finding. */
  readonly highTools: number;
}

export interface CatalogScanOptions {
  /** Hosts whose links are not reported. */
  readonly allowedHosts?: readonly string[];
  /** Every field through the full scan, no prefilter (to prove the prefilter changes nothing). */
  readonly exhaustive?: boolean;
}

/**
 * Scans every tool of a catalog for poisoning. The catalog supplies what a single definition
 * cannot: the names a look-alike might imitate, and which `server__` prefixes are real servers.
 */
export function scanCatalogForPoisoning(
  tools: readonly SessionTool[],
  options: CatalogScanOptions = {},
): PoisoningReport {
  let skeletons: Map<string, string[]> | undefined;
  // Only a name outside ASCII is compared with the others: most catalogs never build this.
  const lazySkeletons = (): Map<string, string[]> =>
    (skeletons ??= nameSkeletons(tools.map((tool) => tool.originalName)));
  const knownServers = new Set(tools.map((tool) => tool.label.toLowerCase()));
  const findings: ToolPoisonFinding[] = [];
  const highToolNames = new Set<string>();
  for (const tool of tools) {
    const found = scanToolDefinition(tool.definition, {
      server: tool.label,
      knownServers,
      nameSkeletons: lazySkeletons,
      ...(options.allowedHosts ? { allowedHosts: options.allowedHosts } : {}),
      ...(options.exhaustive === true ? { exhaustive: true } : {}),
    });
    for (const item of found) {
      findings.push({ ...item, tool: tool.name, server: tool.label });
      if (item.severity === 'high') highToolNames.add(tool.name);
    }
  }
  const order: Record<PoisonSeverity, number> = { high: 0, medium: 1, low: 2 };
  // Stable sort: catalog order within a severity.
  findings.sort((a, b) => order[a.severity] - order[b.severity]);
  const bySeverity: Record<PoisonSeverity, number> = { high: 0, medium: 0, low: 0 };
  const byCode = Object.fromEntries(Object.keys(POISON_CODES).map((code) => [code, 0])) as Record<PoisonCode, number>;
  for (const item of findings) {
    bySeverity[item.severity] += 1;
    byCode[item.code] += 1;
  }
  return { tools: tools.length, findings, bySeverity, byCode, highTools: highToolNames.size };
}
