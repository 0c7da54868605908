import { baseModelName, toolsetLabel, type Toolset } from '@toolsearch/catalog';
import { BRIDGE_ERROR_CODES, foldName, type BridgeError } from '@toolsearch/bridge';

const HOW_TO_FIX = {
  TOOL_QUARANTINED:
    'It is quarantined by the tenant’s tool vetting; an operator can review it with `toolsearch toolsets diff` and release it with `toolsearch toolsets accept`.',
  TOOL_CHANGE_PENDING:
    'Its definition changed and waits for an operator’s review (`toolsearch toolsets diff`, then `toolsearch toolsets accept`); use another tool meanwhile.',
} as const;

/**
 * The refusals of the tools a session's toolsets withhold (see `Toolset.withheld`), by folded
 * model-facing name and by original name, so a `tool_call` of one says why it cannot run.
 */
export function withheldTools(toolsets: readonly Toolset[]): Map<string, BridgeError> {
  const refusals = new Map<string, BridgeError>();
  for (const toolset of toolsets) {
    if (toolset.withheld === undefined || toolset.withheld.length === 0) continue;
    const namespace = toolset.kind === 'mcp' ? toolsetLabel(toolset) : undefined;
    for (const { name, code, reason } of toolset.withheld) {
      const modelName = baseModelName({
        toolset: toolset.id,
        originalName: name,
        ...(namespace !== undefined ? { namespace } : {}),
      });
      const error: BridgeError = {
        code: BRIDGE_ERROR_CODES[code],
        message: `'${modelName}' cannot be called: ${reason} ${HOW_TO_FIX[code]}`,
      };
      refusals.set(foldName(modelName), error);
      if (!refusals.has(foldName(name))) refusals.set(foldName(name), error);
    }
  }
  return refusals;
}
