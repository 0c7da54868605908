import { z } from 'zod';

/** Where a tool comes from. `core` tools belong to the agent itself and are never deferred. */
export const ToolKindSchema = z.enum(['core', 'plugin', 'mcp']);
export type ToolKind = z.infer<typeof ToolKindSchema>;

/** Risk level of a tool, as seed 002 defines it: low (reads), medium (reversible writes), high. */
export const RiskSchema = z.enum(['low', 'medium', 'high']);
export type Risk = z.infer<typeof RiskSchema>;

/** A JSON object (a JSON Schema, an argument map). Unknown keys are kept as they are. */
export const JsonObjectSchema = z.record(z.string(), z.unknown());
export type JsonObject = z.infer<typeof JsonObjectSchema>;

/** The MCP behaviour hints. All optional; absent means "not declared", never "false". */
export const ToolAnnotationsSchema = z.looseObject({
  title: z.string().optional(),
  readOnlyHint: z.boolean().optional(),
  destructiveHint: z.boolean().optional(),
  idempotentHint: z.boolean().optional(),
  openWorldHint: z.boolean().optional(),
});
export type ToolAnnotations = z.infer<typeof ToolAnnotationsSchema>;

/**
 * One tool as its owner declares it. `name` is the owner's own name (an MCP server's tool name,
 * a plugin's function name); the model-facing name is derived per session by `assignToolNames`.
 */
export const ToolDefinitionSchema = z.object({
  name: z.string().min(1).max(512),
  description: z.string().max(200_000).default(''),
  inputSchema: JsonObjectSchema.default({ type: 'object', properties: {} }),
  outputSchema: JsonObjectSchema.optional(),
  annotations: ToolAnnotationsSchema.optional(),
  tags: z.array(z.string().max(64)).max(64).default([]),
  risk: RiskSchema.optional(),
  alwaysLoad: z.boolean().default(false),
});
export type ToolDefinition = z.infer<typeof ToolDefinitionSchema>;
/** The accepted input shape of a tool definition (defaults not yet applied). */
export type ToolDefinitionInput = z.input<typeof ToolDefinitionSchema>;

/** Toolset ids: `core`, `mcp-<server>`, or a plugin's own id. */
export const ToolsetIdSchema = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9@][A-Za-z0-9@._/:+-]*$/, 'toolset ids use letters, digits and @ . _ / : + -');

/**
 * A named group of tools from one source: an MCP server, a plugin, or the gateway's core set.
 * `unavailable` marks a source whose tools exist but cannot be used right now (a disconnected
 * MCP server); the listing names it, search and calls do not reach its tools.
 */
/** A tool kept from sessions, with the stable code a call of it is refused with and why. */
export const WithheldToolSchema = z.object({
  name: z.string().min(1).max(1000),
  code: z.enum(['TOOL_QUARANTINED', 'TOOL_CHANGE_PENDING']),
  reason: z.string().max(1000),
});
export type WithheldTool = z.infer<typeof WithheldToolSchema>;

export const ToolsetSchema = z.object({
  id: ToolsetIdSchema,
  kind: ToolKindSchema,
  /** MCP server name or plugin name shown to the model; defaults to the id without `mcp-`. */
  label: z.string().min(1).max(200).optional(),
  /** What the source says about itself (an MCP server's instructions); searchable, low weight. */
  description: z.string().max(20_000).optional(),
  tools: z.array(ToolDefinitionSchema).max(100_000),
  supports_parallel_tool_calls: z.boolean().default(false),
  /** Risk for tools of this toolset that declare none (seed 002: the owner's declaration wins). */
  risk: RiskSchema.optional(),
  /** Tools declared parallel-safe by a plugin (by original name). */
  parallel_safe_tools: z.array(z.string()).default([]),
  unavailable: z.string().max(500).optional(),
  /**
   * Tools of the source that sessions do not get (by original name): quarantined for a finding,
   * or changed and waiting for an operator's review. Set by the daemon's vetting, not by sources;
   * a call of one is refused with `code` instead of "unknown tool".
   */
  withheld: z.array(WithheldToolSchema).max(100_000).optional(),
});
export type Toolset = z.infer<typeof ToolsetSchema>;
export type ToolsetInput = z.input<typeof ToolsetSchema>;

/** The label a toolset is shown under: its explicit label, else its id without `mcp-`. */
export function toolsetLabel(toolset: Pick<Toolset, 'id' | 'label'>): string {
  if (toolset.label !== undefined && toolset.label.trim() !== '') return toolset.label.trim();
  return toolset.id.startsWith('mcp-') ? toolset.id.slice(4) || toolset.id : toolset.id;
}
