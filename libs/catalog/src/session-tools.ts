import type { ToolSearchConfig } from './config';
import { assignModelNames, isBridgeToolName, type NameRequest } from './names';
import { toolsetLabel, type Risk, type ToolDefinition, type ToolKind, type Toolset } from './tool';

/** A tool as one session sees it: its model-facing name, where it comes from, and whether it defers. */
export interface SessionTool {
  /** The model-facing name: valid everywhere, unique within the session. */
  readonly name: string;
  /** The owner's own name (what the MCP server or plugin is called with). */
  readonly originalName: string;
  readonly toolset: string;
  readonly kind: ToolKind;
  /** The source label: MCP server name, plugin name, or `core`. */
  readonly label: string;
  /** What the source says about itself, if anything (searchable). */
  readonly sourceDescription: string;
  readonly definition: ToolDefinition;
  /** True when the tool lives in the catalog behind the bridge instead of the direct tool array. */
  readonly deferred: boolean;
  /** Risk as declared by the tool, else by its toolset, else undefined (callers derive it). */
  readonly risk: Risk | undefined;
  /** Whether the dispatcher may run this tool alongside other parallel-safe calls. */
  readonly parallelSafe: boolean;
}

/** A source that is declared but whose tools cannot be used now; the listing still names it. */
export interface UnavailableSource {
  readonly label: string;
  readonly toolset: string;
  readonly toolCount: number;
  readonly reason: string;
}

/** Every tool of one session, classified, in canonical order. */
export interface SessionToolTable {
  /** Tools loaded directly, in canonical order (core toolsets first, then by toolset id). */
  readonly visible: readonly SessionTool[];
  /** The catalog: deferrable tools of available toolsets, in canonical order. */
  readonly deferred: readonly SessionTool[];
  readonly unavailable: readonly UnavailableSource[];
  /** Model-facing name → tool, over visible and deferred tools. */
  readonly byName: ReadonlyMap<string, SessionTool>;
}

const KIND_ORDER: Record<ToolKind, number> = { core: 0, plugin: 1, mcp: 2 };

/**
 * Orders toolsets so the result does not depend on the order the caller listed them in: core
 * first, then plugins, then MCP servers, each by id. Tools keep their order within a toolset.
 */
export function canonicalToolsetOrder(toolsets: readonly Toolset[]): Toolset[] {
  return [...toolsets].sort(
    (a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
}

/**
 * Decides whether one tool is deferred, in this order: a bridge name never is; a name on the
 * `defer` list always is (even a core tool); a core tool (by kind or by the core name set) is not;
 * `alwaysLoad` keeps a tool direct; MCP and plugin tools are.
 */
export function isDeferrable(
  tool: { readonly name: string; readonly kind: ToolKind; readonly alwaysLoad: boolean },
  config: Pick<ToolSearchConfig, 'defer' | 'core_tools'>,
): boolean {
  if (isBridgeToolName(tool.name)) return false;
  if (config.defer.has(tool.name)) return true;
  if (tool.kind === 'core' || config.core_tools.has(tool.name)) return false;
  if (tool.alwaysLoad) return false;
  return tool.kind === 'mcp' || tool.kind === 'plugin';
}

function isParallelSafe(toolset: Toolset, definition: ToolDefinition): boolean {
  if (definition.annotations?.readOnlyHint === true) return true;
  if (toolset.kind === 'mcp') return toolset.supports_parallel_tool_calls;
  return toolset.parallel_safe_tools.includes(definition.name);
}

/**
 * Names and classifies every tool of a session. Pure and deterministic: the same toolsets (in any
 * order) and config give the same table. Core and plugin tools named like the bridge are dropped,
 * because assembly adds the real bridge itself; an MCP server's tool of that name keeps its
 * namespaced name (`other__tool_search`, e.g. another toolsearch behind MCP) and is an ordinary
 * tool. Nothing else is ever dropped: a tool of unknown provenance stays visible.
 */
export function buildSessionTools(
  toolsets: readonly Toolset[],
  config: Pick<ToolSearchConfig, 'defer' | 'core_tools'>,
): SessionToolTable {
  const ordered = canonicalToolsetOrder(toolsets);
  const entries: { toolset: Toolset; definition: ToolDefinition; label: string }[] = [];
  const requests: NameRequest[] = [];
  const unavailable: UnavailableSource[] = [];
  for (const toolset of ordered) {
    const label = toolsetLabel(toolset);
    if (toolset.unavailable !== undefined) {
      unavailable.push({ label, toolset: toolset.id, toolCount: toolset.tools.length, reason: toolset.unavailable });
      continue;
    }
    for (const definition of toolset.tools) {
      if (toolset.kind !== 'mcp' && isBridgeToolName(definition.name)) continue;
      entries.push({ toolset, definition, label });
      requests.push({
        toolset: toolset.id,
        originalName: definition.name,
        ...(toolset.kind === 'mcp' ? { namespace: label } : {}),
      });
    }
  }
  const names = assignModelNames(requests);
  const visible: SessionTool[] = [];
  const deferred: SessionTool[] = [];
  const byName = new Map<string, SessionTool>();
  entries.forEach(({ toolset, definition, label }, index) => {
    const name = names[index] ?? definition.name;
    const tool: SessionTool = {
      name,
      originalName: definition.name,
      toolset: toolset.id,
      kind: toolset.kind,
      label,
      sourceDescription: toolset.description ?? '',
      definition,
      deferred: isDeferrable({ name, kind: toolset.kind, alwaysLoad: definition.alwaysLoad }, config),
      risk: definition.risk ?? toolset.risk,
      parallelSafe: isParallelSafe(toolset, definition),
    };
    (tool.deferred ? deferred : visible).push(tool);
    byName.set(name, tool);
  });
  return { visible, deferred, unavailable, byName };
}
