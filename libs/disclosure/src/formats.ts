import type { NeutralTool } from './bridge-schemas';

/** The tool-array dialects assembly can emit. */
export const TOOL_FORMATS = ['openai', 'anthropic', 'mcp'] as const;
export type ToolFormat = (typeof TOOL_FORMATS)[number];

export function isToolFormat(value: unknown): value is ToolFormat {
  return typeof value === 'string' && (TOOL_FORMATS as readonly string[]).includes(value);
}

/** OpenAI chat-completions function tool. */
export interface OpenAiTool {
  readonly type: 'function';
  readonly function: { readonly name: string; readonly description: string; readonly parameters: object };
}
/** Anthropic Messages API tool. */
export interface AnthropicTool {
  readonly name: string;
  readonly description: string;
  readonly input_schema: object;
}
/** MCP `tools/list` entry. */
export interface McpTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: object;
  readonly outputSchema?: object;
  readonly annotations?: object;
}
export type FormattedTool = OpenAiTool | AnthropicTool | McpTool;

/** Converts neutral tools to one dialect. Key order is fixed so the bytes are stable. */
export function formatTools(tools: readonly NeutralTool[], format: ToolFormat): FormattedTool[] {
  switch (format) {
    case 'openai':
      return tools.map((tool) => ({
        type: 'function',
        function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
      }));
    case 'anthropic':
      return tools.map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.inputSchema }));
    case 'mcp':
      return tools.map((tool) => ({
        name: tool.name,
        description: tool.description,
        inputSchema: tool.inputSchema,
        ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
        ...(tool.annotations ? { annotations: tool.annotations } : {}),
      }));
  }
}
