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

/** Where a field sits: object keys and array indexes from the definition's root, `~name` last for a property name. */
export type FieldPath = readonly (string | number)[];
/** Marks a property name (indexes are never negative). */
const NAME_MARK = -1;

/** The JSON path of a field (`$.inputSchema.properties["a b"]~name`), built only when a finding needs it. */
export function formatPath(path: FieldPath): string {
  let out = '$';
  for (let index = 0; index < path.length; index += 1) {
    const part = path[index] as string | number;
    if (part === NAME_MARK) out += '~name';
    else if (typeof part === 'number') out += `[${part}]`;
    else out += PLAIN_KEY.test(part) ? `.${part}` : `[${JSON.stringify(part)}]`;
  }
  return out;
}

/** What one walk carries (module-level functions, not closures: one walk per tool adds up). */
interface Walk {
  readonly visit: (text: string, kind: TextField['kind'], path: FieldPath) => void;
  readonly path: (string | number)[];
  count: number;
}

function addField(walk: Walk, text: string, kind: TextField['kind']): void {
  if (walk.count >= SCAN_LIMITS.fields || text === '') return;
  walk.count += 1;
  walk.visit(text, kind, walk.path);
}

/** Depth-first in document order; depth is capped, so the recursion is too. */
function walkValue(walk: Walk, value: unknown, depth: number, isPropertyMap: boolean): void {
  if (walk.count >= SCAN_LIMITS.fields) return;
  if (typeof value === 'string') {
    addField(walk, value, 'text');
    return;
  }
  if (typeof value !== 'object' || value === null || depth >= SCAN_LIMITS.depth) return;
  const path = walk.path;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) {
      const item: unknown = value[index];
      if (typeof item !== 'string' && (typeof item !== 'object' || item === null)) continue;
      path.push(index);
      walkValue(walk, item, depth + 1, false);
      path.pop();
    }
    return;
  }
  // for-in over plain JSON objects walks own keys without allocating an array of them.
  for (const key in value) {
    if (!Object.prototype.hasOwnProperty.call(value, key) || (!isPropertyMap && MACHINE_KEYS.has(key))) continue;
    const item = (value as Record<string, unknown>)[key];
    path.push(key);
    if (isPropertyMap) {
      path.push(NAME_MARK);
      addField(walk, key, 'name');
      path.pop();
    }
    // Only what can hold text is followed: strings and containers.
    if (typeof item === 'string' || (typeof item === 'object' && item !== null))
      walkValue(walk, item, depth + 1, !isPropertyMap && key === 'properties');
    path.pop();
  }
}

function walkAt(walk: Walk, keys: readonly string[], value: unknown, kind: TextField['kind'] | 'schema'): void {
  walk.path.push(...keys);
  if (kind === 'schema') walkValue(walk, value, 0, false);
  else if (typeof value === 'string') addField(walk, value, kind);
  walk.path.length -= keys.length;
}

/**
 * Calls `visit` with every piece of text in a definition the model may see: the name, description
 * and title, and in both schemas every string anywhere (descriptions, titles, enum values,
 * defaults, examples, `x-` extensions) plus every property name, with a depth and a field cap.
 * `path` is a stack shared by the walk: valid during the call only (`formatPath` it to keep it).
 * No path string is built unless the visitor asks: on a large catalog that was a quarter of the
 * scan.
 */
export function visitTextFields(
  tool: ScannableTool,
  visit: (text: string, kind: TextField['kind'], path: FieldPath) => void,
): void {
  const walk: Walk = { visit, path: [], count: 0 };
  walkAt(walk, ['name'], tool.name, 'name');
  walkAt(walk, ['description'], tool.description ?? '', 'text');
  walkAt(walk, ['annotations', 'title'], tool.annotations?.title, 'text');
  if (tool.inputSchema) walkAt(walk, ['inputSchema'], tool.inputSchema, 'schema');
  if (tool.outputSchema) walkAt(walk, ['outputSchema'], tool.outputSchema, 'schema');
}

/** A field as the detailed scans take it (the text cut to `SCAN_LIMITS.fieldChars`). */
export function textField(text: string, kind: TextField['kind'], path: FieldPath): TextField {
  return { path: formatPath(path), text: text.slice(0, SCAN_LIMITS.fieldChars), kind, fullLength: text.length };
}

/** Every text field of a definition, in document order (see `visitTextFields`). */
export function textFields(tool: ScannableTool): TextField[] {
  const fields: TextField[] = [];
  visitTextFields(tool, (text, kind, path) => fields.push(textField(text, kind, path)));
  return fields;
}
