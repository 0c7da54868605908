// Pure conversions between MCP values and ours (no connection here).

/** The text parts of an MCP result, joined (for error messages). */
export function textOf(content: unknown): string {
  if (!Array.isArray(content)) return '';
  return content
    .flatMap((part: unknown) =>
      typeof part === 'object' && part !== null && (part as { type?: unknown }).type === 'text'
        ? [String((part as { text?: unknown }).text ?? '')]
        : [],
    )
    .join('\n')
    .slice(0, 2000);
}

/** The parts of the daemon's own environment a child server may inherit (no secrets of ours). */
export function safeEnv(): Record<string, string> {
  const keep = ['PATH', 'HOME', 'LANG', 'TMPDIR', 'NODE_PATH'];
  return Object.fromEntries(
    keep.flatMap((name) => (process.env[name] !== undefined ? [[name, process.env[name] as string]] : [])),
  );
}

/** An MCP tool as a tool definition (unknown fields dropped, annotations kept). */
export function toDefinition(tool: unknown): Record<string, unknown> {
  const value = tool as {
    name?: unknown;
    description?: unknown;
    inputSchema?: unknown;
    outputSchema?: unknown;
    annotations?: unknown;
  };
  return {
    name: String(value.name ?? ''),
    description: typeof value.description === 'string' ? value.description : '',
    ...(typeof value.inputSchema === 'object' && value.inputSchema !== null ? { inputSchema: value.inputSchema } : {}),
    ...(typeof value.outputSchema === 'object' && value.outputSchema !== null
      ? { outputSchema: value.outputSchema }
      : {}),
    ...(typeof value.annotations === 'object' && value.annotations !== null ? { annotations: value.annotations } : {}),
  };
}
