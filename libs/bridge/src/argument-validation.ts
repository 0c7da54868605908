import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { JsonObject } from '@toolsearch/catalog';
import { MAX_JSON_DEPTH, parseJsonWithin } from './json-depth';

/** Why a call's arguments were refused before the tool ran. */
export interface ArgumentProblem {
  readonly message: string;
  /** Where in the arguments: `arguments.a.b`, `arguments.items[0]`, `arguments["odd key"]`. */
  readonly path: string;
  /** The JSON Schema keyword that failed: `required`, `type`, `enum`, `additionalProperties`, … */
  readonly constraint: string;
  /** The tool's full input schema, so the model can retry with correct arguments. */
  readonly parameters: JsonObject;
}

export type ArgumentCheck =
  | { readonly ok: true; readonly arguments: Record<string, unknown>; readonly checked: boolean }
  | { readonly ok: false; readonly problem: ArgumentProblem };

const DETAIL_LIMIT = 600;
// Keys whose values are data, not schemas: never rewritten by normalisation.
const LITERAL_KEYS = new Set(['const', 'default', 'enum', 'example', 'examples']);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True when the schema points outside itself (`$ref` not starting with `#`): never fetched. */
export function hasRemoteRef(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(hasRemoteRef);
  if (!isObject(node)) return false;
  for (const [key, value] of Object.entries(node)) {
    if (LITERAL_KEYS.has(key)) continue;
    if (key === '$ref' && typeof value === 'string' && !value.startsWith('#')) return true;
    if (hasRemoteRef(value)) return true;
  }
  return false;
}

/** Rewrites OpenAPI's `nullable: true` as JSON Schema (adds `null` to the type). Returns a copy. */
export function normaliseSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(normaliseSchema);
  if (!isObject(node)) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'nullable') continue;
    out[key] = LITERAL_KEYS.has(key) ? value : normaliseSchema(value);
  }
  if (node['nullable'] === true) {
    const type = out['type'];
    if (typeof type === 'string') out['type'] = type === 'null' ? type : [type, 'null'];
    else if (Array.isArray(type)) out['type'] = type.includes('null') ? type : [...type, 'null'];
    else return { anyOf: [out, { type: 'null' }] };
  }
  return out;
}

const draft7 = new Ajv({
  strict: false,
  allErrors: false,
  coerceTypes: 'array',
  useDefaults: false,
  validateFormats: false,
});
const draft2020 = new Ajv2020({
  strict: false,
  allErrors: false,
  coerceTypes: 'array',
  useDefaults: false,
  validateFormats: false,
});
const compiled = new WeakMap<object, ValidateFunction | null>();

function validatorFor(schema: JsonObject): ValidateFunction | null {
  const cached = compiled.get(schema);
  if (cached !== undefined) return cached;
  let validator: ValidateFunction | null = null;
  try {
    if (!hasRemoteRef(schema)) {
      const normalised = normaliseSchema(schema) as Record<string, unknown>;
      const { $schema, $id: _id, ...rest } = normalised;
      const engine = typeof $schema === 'string' && $schema.includes('2020-12') ? draft2020 : draft7;
      validator = engine.compile(rest);
    }
  } catch {
    validator = null; // An unusable schema never blocks a call: the tool itself will judge.
  }
  compiled.set(schema, validator);
  return validator;
}

/** `arguments.a.b`, `arguments.items[0]`, `arguments["odd key"]` from an ajv instance path. */
export function argumentPath(instancePath: string, extra?: string): string {
  const parts =
    instancePath === ''
      ? []
      : instancePath
          .slice(1)
          .split('/')
          .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (extra !== undefined) parts.push(extra);
  let path = 'arguments';
  for (const part of parts) {
    if (/^\d+$/.test(part)) path += `[${part}]`;
    else if (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(part)) path += `.${part}`;
    else path += `[${JSON.stringify(part)}]`;
  }
  return path;
}

function collapse(text: string): string {
  const single = text.replace(/\s+/g, ' ').trim();
  return single.length <= DETAIL_LIMIT ? single : `${single.slice(0, DETAIL_LIMIT - 3)}...`;
}

function describeError(error: ErrorObject): { path: string; detail: string } {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'required') {
    return { path: argumentPath(error.instancePath), detail: `missing ${String(params['missingProperty'])}` };
  }
  if (error.keyword === 'additionalProperties') {
    return {
      path: argumentPath(error.instancePath),
      detail: `unexpected property ${String(params['additionalProperty'])}`,
    };
  }
  if (error.keyword === 'enum') {
    return {
      path: argumentPath(error.instancePath),
      detail: `must be one of ${JSON.stringify(params['allowedValues'])}`,
    };
  }
  return { path: argumentPath(error.instancePath), detail: error.message ?? 'is not valid' };
}

/**
 * Empty strings and JSON text where the schema wants an object or array, as some model gateways
 * send them: `""`/`"{}"` become `{}` for an object without required fields, JSON text is parsed
 * (when it nests at most `maxDepth` levels: deeper text stays a string and fails validation).
 */
function repairStructuredStrings(
  schema: JsonObject,
  args: Record<string, unknown>,
  maxDepth: number,
): Record<string, unknown> {
  const properties = schema['properties'];
  if (!isObject(properties)) return args;
  const out = { ...args };
  for (const [key, value] of Object.entries(args)) {
    const property = properties[key];
    if (typeof value !== 'string' || !isObject(property)) continue;
    const types = Array.isArray(property['type']) ? property['type'] : [property['type']];
    const wantsObject = types.includes('object');
    const wantsArray = types.includes('array');
    if (!wantsObject && !wantsArray) continue;
    const text = value.trim();
    const required = property['required'];
    if (wantsObject && (text === '' || text === '{}') && !(Array.isArray(required) && required.length > 0)) {
      out[key] = {};
      continue;
    }
    // Unparseable or too deep: left as it is, validation says what is wrong.
    const parsed = parseJsonWithin(text, maxDepth);
    if (parsed.ok && ((wantsObject && isObject(parsed.value)) || (wantsArray && Array.isArray(parsed.value))))
      out[key] = parsed.value;
  }
  return out;
}

/**
 * Checks a call's arguments against the tool's JSON Schema before anything runs: the required
 * names first (the clearest message for the commonest mistake), then the whole schema (draft-07,
 * or 2020-12 when the schema says so). Plain coercions are applied ("42" → 42, a scalar → [x]) and
 * the repaired arguments are what the tool receives. Fails open: a schema that cannot be compiled
 * or that points at remote `$ref`s is not checked. JSON text inside the arguments is repaired only
 * when it nests at most `maxDepth` levels.
 */
export function checkArguments(
  toolName: string,
  schema: JsonObject,
  rawArguments: Record<string, unknown>,
  maxDepth: number = MAX_JSON_DEPTH,
): ArgumentCheck {
  const required = Array.isArray(schema['required'])
    ? schema['required'].filter((n): n is string => typeof n === 'string')
    : [];
  const missing = required.filter((name) => !Object.prototype.hasOwnProperty.call(rawArguments, name));
  if (missing.length > 0) {
    return {
      ok: false,
      problem: {
        message: `tool_call to '${toolName}' is missing required argument(s): ${missing.join(', ')}. The tool was NOT run; retry with arguments that match the parameters schema.`,
        path: 'arguments',
        constraint: 'required',
        parameters: schema,
      },
    };
  }
  const validator = validatorFor(schema);
  if (validator === null) return { ok: true, arguments: rawArguments, checked: false };
  const candidate = structuredClone(repairStructuredStrings(schema, rawArguments, maxDepth));
  if (validator(candidate)) return { ok: true, arguments: candidate, checked: true };
  const [first] = validator.errors ?? [];
  if (first === undefined) return { ok: true, arguments: candidate, checked: true };
  const { path, detail } = describeError(first);
  return {
    ok: false,
    problem: {
      message: `tool_call to '${toolName}' has invalid arguments at ${path} (${first.keyword}): ${collapse(detail)}. The tool was NOT run; retry with arguments that match the parameters schema.`,
      path,
      constraint: first.keyword,
      parameters: schema,
    },
  };
}
