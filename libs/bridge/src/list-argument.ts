import { BRIDGE_ERROR_CODES, bridgeError, type BridgeError } from './bridge-error';
import { jsonDepthWithin, MAX_JSON_DEPTH } from './json-depth';

/** The outcome of reading a "one or many strings" argument. */
export type ListArgument = { ok: true; items: string[] } | { ok: false; reason: 'missing' | 'empty' };

/**
 * Reads a bridge argument that takes one string or a list of strings: a bare string is a list of
 * one; list items are stringified and trimmed; null, false, 0 and blank items are dropped.
 */
export function readStringList(value: unknown): ListArgument {
  if (typeof value === 'string')
    return value.trim() === '' ? { ok: false, reason: 'empty' } : { ok: true, items: [value.trim()] };
  if (!Array.isArray(value)) return { ok: false, reason: 'missing' };
  const items = value
    .filter((item) => item !== null && item !== undefined && item !== false && item !== 0)
    .map((item) => (typeof item === 'string' ? item : JSON.stringify(item)).trim())
    .filter((item) => item !== '');
  return items.length === 0 ? { ok: false, reason: 'empty' } : { ok: true, items };
}

/**
 * Parses a bridge call's arguments: an object, a JSON string of one, or blank/absent (= {}). JSON
 * text nested deeper than `maxDepth` is refused like any other text that is not an object.
 */
export function readArgumentsObject(
  value: unknown,
  maxDepth: number = MAX_JSON_DEPTH,
): Record<string, unknown> | undefined {
  if (value === undefined || value === null) return {};
  if (typeof value === 'string') {
    if (value.trim() === '') return {};
    if (!jsonDepthWithin(value, maxDepth)) return undefined;
    try {
      return readArgumentsObject(JSON.parse(value), maxDepth);
    } catch {
      return undefined;
    }
  }
  return typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** How one bridge tool names and bounds its list argument, for `readBridgeList`. */
export interface ListSpec {
  readonly tool: string;
  /** The argument's name (`queries`, `names`) and the singular some models send instead. */
  readonly key: string;
  readonly singular: string;
  /** Shown in the messages: what the list holds and an example value. */
  readonly what: string;
  readonly example: string;
  readonly max: number;
  /** Advice when the list is too long. */
  readonly tooMany: string;
  /** Drop repeated items (names) or keep them (queries). */
  readonly dedupe: boolean;
  /** How deep the arguments' JSON text may nest (the session's bound). */
  readonly maxDepth?: number;
}

/**
 * Reads a bridge call's arguments object and its list argument: the object (or its JSON text),
 * the list (or a single string), blanks dropped, the cap checked after dropping. Every failure is
 * a `BAD_ARGUMENTS` or `TOO_MANY` error whose message says how to call the tool correctly.
 */
export function readBridgeList(
  rawArguments: unknown,
  spec: ListSpec,
): { ok: true; args: Record<string, unknown>; items: string[] } | { ok: false; error: BridgeError } {
  const args = readArgumentsObject(rawArguments, spec.maxDepth);
  if (args === undefined) {
    return {
      ok: false,
      error: bridgeError(
        BRIDGE_ERROR_CODES.BAD_ARGUMENTS,
        `${spec.tool} takes an object such as {"${spec.key}": ${spec.example}}.`,
      ),
    };
  }
  const list = readStringList(args[spec.key] ?? args[spec.singular]);
  if (!list.ok) {
    const message =
      list.reason === 'missing'
        ? `${spec.key} is required: a list of ${spec.what}, for example ${spec.example}.`
        : `${spec.key} must contain at least one non-blank entry.`;
    return { ok: false, error: bridgeError(BRIDGE_ERROR_CODES.BAD_ARGUMENTS, message) };
  }
  const items = spec.dedupe ? [...new Set(list.items)] : list.items;
  if (items.length > spec.max) {
    return {
      ok: false,
      error: bridgeError(
        BRIDGE_ERROR_CODES.TOO_MANY,
        `Too many ${spec.key}: ${items.length}, at most ${spec.max} per call. ${spec.tooMany}`,
      ),
    };
  }
  return { ok: true, args, items };
}
