/** Bounds that keep a scan's cost proportional to a definition, whatever a server sends. */
export const SCAN_LIMITS = {
  /** Characters of one field that are scanned; the rest is reported as oversized, not read. */
  fieldChars: 65_536,
  /** Text fields taken from one definition (names, descriptions, enum values, examples…). */
  fields: 2_000,
  /** Nesting depth followed in a schema. */
  depth: 16,
} as const;

/** One piece of text a server wrote, with where it sits in the definition. */
export interface TextField {
  /** JSON path, e.g. `$.inputSchema.properties.notes.description`. */
  readonly path: string;
  readonly text: string;
  /** `name` for a tool or parameter name, `text` for everything else. */
  readonly kind: 'name' | 'text';
  /** The length before truncation to `SCAN_LIMITS.fieldChars`. */
  readonly fullLength: number;
}

/** The parts of a tool definition the scanner reads (a subset of the catalog's `ToolDefinition`). */
export interface ScannableTool {
  readonly name: string;
  readonly description?: string;
  readonly inputSchema?: Readonly<Record<string, unknown>>;
  readonly outputSchema?: Readonly<Record<string, unknown>>;
  readonly annotations?: { readonly title?: string | undefined } | undefined;
}

/**
 * Schema keywords whose values are machine values, not prose: `type: "string"` and `$schema` URLs
 * are not read. Every other string is, `x-` extensions included, since the model sees them all.
 */
const MACHINE_KEYS: ReadonlySet<string> = new Set([
  'type',
  'format',
  '$schema',
  '$ref',
  '$id',
  '$anchor',
  'required',
  'pattern',
  'contentEncoding',
  'contentMediaType',
]);

const PLAIN_KEY = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
function child(path: string, key: string): string {
  return PLAIN_KEY.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

/**
 * Every piece of text in a definition the model may see: the name, description and title, and in
 * both schemas every string anywhere (descriptions, titles, enum values, defaults, examples,
 * `x-` extensions) plus every property name, with a depth and a field cap.
 */
export function textFields(tool: ScannableTool): TextField[] {
  const fields: TextField[] = [];
  const add = (path: string, text: string, kind: TextField['kind']): void => {
    if (fields.length >= SCAN_LIMITS.fields || text === '') return;
    fields.push({ path, text: text.slice(0, SCAN_LIMITS.fieldChars), kind, fullLength: text.length });
  };
  add('$.name', tool.name, 'name');
  add('$.description', tool.description ?? '', 'text');
  if (typeof tool.annotations?.title === 'string') add('$.annotations.title', tool.annotations.title, 'text');
  // Depth-first in document order; depth is capped, so the recursion is too.
  const walk = (path: string, value: unknown, depth: number, isPropertyMap: boolean): void => {
    if (fields.length >= SCAN_LIMITS.fields) return;
    if (typeof value === 'string') {
      add(path, value, 'text');
      return;
    }
    if (typeof value !== 'object' || value === null || depth >= SCAN_LIMITS.depth) return;
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index += 1) {
        const item: unknown = value[index];
        if (typeof item === 'string' || (typeof item === 'object' && item !== null))
          walk(`${path}[${index}]`, item, depth + 1, false);
      }
      return;
    }
    for (const key of Object.keys(value)) {
      const item = (value as Record<string, unknown>)[key];
      const itemPath = child(path, key);
      if (isPropertyMap) add(`${itemPath}~name`, key, 'name');
      else if (MACHINE_KEYS.has(key)) continue;
      // Paths are built only for what can hold text: strings and containers.
      if (typeof item === 'string' || (typeof item === 'object' && item !== null))
        walk(itemPath, item, depth + 1, !isPropertyMap && key === 'properties');
    }
  };
  if (tool.inputSchema) walk('$.inputSchema', tool.inputSchema, 0, false);
  if (tool.outputSchema) walk('$.outputSchema', tool.outputSchema, 0, false);
  return fields;
}
