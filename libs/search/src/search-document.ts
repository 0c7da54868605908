import type { SessionTool } from '@toolsearch/catalog';

/** What the index knows of one tool: its fields, already as plain text. */
export interface SearchDocument {
  /** Model-facing name (what search returns). */
  readonly name: string;
  readonly originalName: string;
  /** Source label: MCP server or plugin name. */
  readonly label: string;
  /**
   * The source's identity, unique in a catalog where labels need not be (the toolset id); the
   * label stands in when absent.
   */
  readonly source?: string;
  readonly description: string;
  readonly parameters: readonly string[];
  /** The descriptions of the top-level parameters, joined. */
  readonly parameterDocs: string;
  readonly tags: readonly string[];
  /** What the source says about itself (an MCP server's instructions), if known. */
  readonly sourceDescription: string;
}

/** The top-level parameter names of a JSON Schema object, or [] when it has none. */
export function parameterNames(schema: unknown): string[] {
  if (typeof schema !== 'object' || schema === null) return [];
  const properties = (schema as { properties?: unknown }).properties;
  if (typeof properties !== 'object' || properties === null || Array.isArray(properties)) return [];
  return Object.keys(properties);
}

/** The descriptions of the top-level parameters of a JSON Schema object, joined by spaces. */
export function parameterDescriptions(schema: unknown): string {
  if (typeof schema !== 'object' || schema === null) return '';
  const properties = (schema as { properties?: unknown }).properties;
  if (typeof properties !== 'object' || properties === null || Array.isArray(properties)) return '';
  const parts: string[] = [];
  for (const value of Object.values(properties)) {
    const description =
      typeof value === 'object' && value !== null ? (value as { description?: unknown }).description : undefined;
    if (typeof description === 'string') parts.push(description.slice(0, 500));
  }
  return parts.join(' ');
}

/** The document of a session tool. */
export function toSearchDocument(tool: SessionTool): SearchDocument {
  return {
    name: tool.name,
    originalName: tool.originalName,
    label: tool.label,
    source: tool.toolset,
    description: tool.definition.description,
    parameters: parameterNames(tool.definition.inputSchema),
    parameterDocs: parameterDescriptions(tool.definition.inputSchema),
    tags: tool.definition.tags,
    sourceDescription: tool.sourceDescription,
  };
}
