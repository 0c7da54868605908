import { z } from 'zod';
import { createHash } from 'node:crypto';
import { slugify } from './names';
import { JsonObjectSchema, RiskSchema, ToolsetIdSchema, type ToolAnnotations, type Toolset } from './tool';

/**
 * One line of a catalog file (the `shared/data` JSON Lines format): a tool and the server it belongs
 * to, with what its owner declares about it (seed 002: `risk`, `tags`, `alwaysLoad`, the MCP
 * annotation hints, `outputSchema`). Other keys are allowed and ignored.
 */
export const CatalogRecordSchema = z.looseObject({
  server: z.string().min(1, 'server must be a non-empty string'),
  name: z.string().min(1, 'name must be a non-empty string'),
  description: z.string().nullish(),
  inputSchema: JsonObjectSchema.nullish(),
  outputSchema: JsonObjectSchema.nullish(),
  readOnly: z.boolean().optional(),
  server_description: z.string().nullish(),
  annotations: z.record(z.string(), z.unknown()).nullish(),
  risk: RiskSchema.nullish(),
  tags: z.array(z.string().max(64)).max(64).nullish(),
  alwaysLoad: z.boolean().nullish(),
});
export type CatalogRecord = z.infer<typeof CatalogRecordSchema>;

/** A line that could not be read, with enough detail to find and fix it. */
export interface CatalogLineError {
  readonly source: string;
  readonly line: number;
  readonly message: string;
}

export type CatalogParseResult =
  | { readonly ok: true; readonly toolsets: Toolset[]; readonly toolCount: number }
  | { readonly ok: false; readonly error: CatalogLineError };

/**
 * The MCP annotation hints a line declares, those of the right type only (a catalog scraped from
 * the wild may hold anything there); the older top-level `readOnly` counts as `readOnlyHint`.
 */
function declaredHints(raw: Record<string, unknown>, readOnly: boolean | undefined): ToolAnnotations {
  const hints: Record<string, string | boolean> = {};
  if (typeof raw['title'] === 'string') hints['title'] = raw['title'].slice(0, 200);
  for (const key of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'])
    if (typeof raw[key] === 'boolean') hints[key] = raw[key];
  if (hints['readOnlyHint'] === undefined && readOnly !== undefined) hints['readOnlyHint'] = readOnly;
  return hints;
}

/**
 * The toolset id of a catalog server: `mcp-<server>` when that is a valid id, otherwise a slug of
 * the name plus a short hash of it (so distinct names never merge).
 */
export function catalogToolsetId(server: string): string {
  const plain = `mcp-${server}`;
  if (plain.length <= 200 && ToolsetIdSchema.safeParse(plain).success) return plain;
  const hash = createHash('sha256').update(server).digest('hex').slice(0, 8);
  return `mcp-${(slugify(server) || 'server').slice(0, 180)}-${hash}`;
}

/**
 * Parses catalog files into MCP toolsets, one per server (id `mcp-<server>`, label = the server
 * name). Several files combine; a server that appears in more than one file keeps all its tools.
 * Stops at the first bad line and says which file and line it was.
 */
export function parseCatalogFiles(files: readonly { source: string; text: string }[]): CatalogParseResult {
  const byServer = new Map<string, Toolset>();
  let toolCount = 0;
  for (const { source, text } of files) {
    const lines = text.split('\n');
    for (let index = 0; index < lines.length; index += 1) {
      const raw = lines[index]?.trim() ?? '';
      if (raw === '') continue;
      let json: unknown;
      try {
        json = JSON.parse(raw);
      } catch (error) {
        return {
          ok: false,
          error: { source, line: index + 1, message: `not valid JSON (${(error as Error).message})` },
        };
      }
      const parsed = CatalogRecordSchema.safeParse(json);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
        return {
          ok: false,
          error: { source, line: index + 1, message: `${where}${issue?.message ?? 'not a catalog record'}` },
        };
      }
      const record = parsed.data;
      const id = catalogToolsetId(record.server);
      let toolset = byServer.get(id);
      if (toolset === undefined) {
        toolset = {
          id,
          kind: 'mcp',
          label: record.server,
          ...(record.server_description ? { description: record.server_description.slice(0, 20_000) } : {}),
          tools: [],
          supports_parallel_tool_calls: false,
          parallel_safe_tools: [],
        };
        byServer.set(id, toolset);
      }
      const annotations = declaredHints(record.annotations ?? {}, record.readOnly);
      toolset.tools.push({
        name: record.name,
        description: record.description ?? '',
        inputSchema: record.inputSchema ?? { type: 'object', properties: {} },
        ...(record.outputSchema ? { outputSchema: record.outputSchema } : {}),
        ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
        ...(record.risk ? { risk: record.risk } : {}),
        tags: record.tags ?? [],
        alwaysLoad: record.alwaysLoad ?? false,
      });
      toolCount += 1;
    }
  }
  return { ok: true, toolsets: [...byServer.values()], toolCount };
}
