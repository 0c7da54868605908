import { buildSessionTools, type ToolSearchConfig } from '@toolsearch/catalog';
import { createBridgeSession, type BridgeSession } from '@toolsearch/bridge';
import { loadCatalogs, loadConfig } from './inputs';
import type { CliIo } from './io';

/**
 * A bridge session holding every tool of the catalog files, as a gateway session with those MCP
 * servers attached would. Config warnings go to stderr.
 */
export function sessionFromCatalogs(
  paths: readonly string[],
  configPath: string | undefined,
  io: CliIo,
): { session: BridgeSession; config: ToolSearchConfig } {
  const { toolsets } = loadCatalogs(paths);
  const { config, warnings } = loadConfig(configPath, io.env);
  for (const warning of warnings) io.err(`warning: ${warning}\n`);
  return { session: createBridgeSession(buildSessionTools(toolsets, config), config), config };
}
