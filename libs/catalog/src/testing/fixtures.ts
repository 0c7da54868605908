import { ToolsetSchema, type ToolDefinitionInput, type ToolKind, type Toolset } from '../tool';

/** A short tool definition for tests: name, description, property names, required names. */
export function tool(
  name: string,
  description = '',
  properties: readonly string[] = [],
  required: readonly string[] = [],
  extra: Partial<ToolDefinitionInput> = {},
): ToolDefinitionInput {
  return {
    name,
    description,
    inputSchema: {
      type: 'object',
      properties: Object.fromEntries(properties.map((property) => [property, { type: 'string' }])),
      ...(required.length > 0 ? { required: [...required] } : {}),
    },
    ...extra,
  };
}

/** A validated toolset for tests. MCP toolsets get the id `mcp-<label>`. */
export function toolset(
  label: string,
  tools: readonly ToolDefinitionInput[],
  options: { kind?: ToolKind; id?: string; supports_parallel_tool_calls?: boolean; unavailable?: string } = {},
): Toolset {
  const kind = options.kind ?? 'mcp';
  return ToolsetSchema.parse({
    id: options.id ?? (kind === 'mcp' ? `mcp-${label}` : label),
    kind,
    label,
    tools,
    ...(options.supports_parallel_tool_calls !== undefined
      ? { supports_parallel_tool_calls: options.supports_parallel_tool_calls }
      : {}),
    ...(options.unavailable !== undefined ? { unavailable: options.unavailable } : {}),
  });
}

/** The gateway's core tools as a `core` toolset. */
export function coreToolset(names: readonly string[]): Toolset {
  return toolset(
    'core',
    names.map((name) => tool(name, `The ${name.replace(/_/g, ' ')} tool.`)),
    { kind: 'core', id: 'core' },
  );
}

/**
 * A server with `count` generated tools, for tier and budget tests (think of a flat cloud API
 * such as Cloudflare's, thousands of endpoints on one server).
 */
export function bigServer(label: string, count: number): Toolset {
  const verbs = ['get', 'list', 'create', 'update', 'delete', 'patch'];
  const things = [
    'zone',
    'record',
    'worker',
    'route',
    'bucket',
    'certificate',
    'firewall_rule',
    'tunnel',
    'queue',
    'secret',
  ];
  return toolset(
    label,
    Array.from({ length: count }, (_, index) => {
      const verb = verbs[index % verbs.length] ?? 'get';
      const thing = things[Math.floor(index / verbs.length) % things.length] ?? 'zone';
      return tool(
        `${verb}_${thing}_${index}`,
        `${verb[0]?.toUpperCase()}${verb.slice(1)} a ${thing.replace('_', ' ')} of account section ${index}.`,
        ['account_id', 'id'],
      );
    }),
  );
}
