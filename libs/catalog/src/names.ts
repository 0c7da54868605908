import { createHash } from 'node:crypto';

/** What every model API accepts as a function name (OpenAI, Anthropic and MCP clients alike). */
export const MODEL_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
export const MAX_MODEL_NAME_LENGTH = 64;
/** Joins a server slug and a tool name: `github__create_issue`. */
export const NAMESPACE_SEPARATOR = '__';

/** The names of the three bridge tools; they are never deferred and never namespaced. */
export const BRIDGE_TOOL_NAMES = ['tool_search', 'tool_describe', 'tool_call'] as const;
export type BridgeToolName = (typeof BRIDGE_TOOL_NAMES)[number];

export function isBridgeToolName(name: string): name is BridgeToolName {
  return (BRIDGE_TOOL_NAMES as readonly string[]).includes(name);
}

/**
 * Turns any text into the alphabet of function names: runs of other characters become one `_`,
 * and leading/trailing separators go. `@nickclyde/duckduckgo-mcp-server` → `nickclyde_duckduckgo-mcp-server`.
 */
export function slugify(text: string): string {
  if (/^[A-Za-z0-9](?:[A-Za-z0-9-]|_(?!__))*$/.test(text) && !/[_-]$/.test(text)) return text;
  const slug = text
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9_-]+/g, '_')
    .replace(/_{3,}/g, '__')
    .replace(/^[_-]+|[_-]+$/g, '');
  return slug;
}

function shortHash(parts: readonly string[], length = 6): string {
  return createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, length);
}

/** Fits a candidate into 64 characters, keeping it recognisable and unique by a hash of its origin. */
function fitLength(candidate: string, origin: readonly string[]): string {
  if (candidate.length <= MAX_MODEL_NAME_LENGTH) return candidate;
  const hash = shortHash(origin);
  return `${candidate.slice(0, MAX_MODEL_NAME_LENGTH - hash.length - 1)}_${hash}`;
}

/** A request to name one tool: which toolset it is in, its original name, and whether to namespace it. */
export interface NameRequest {
  readonly toolset: string;
  readonly originalName: string;
  /** MCP tools are namespaced by their server's slug; core and plugin tools keep their own names. */
  readonly namespace?: string;
}

/**
 * The model-facing name a tool would get on its own, before collisions with other tools are known.
 */
export function baseModelName(request: NameRequest): string {
  const tool = slugify(request.originalName) || 'tool';
  const candidate =
    request.namespace === undefined ? tool : `${slugify(request.namespace) || 'server'}${NAMESPACE_SEPARATOR}${tool}`;
  return fitLength(candidate, [request.toolset, request.originalName]);
}

/**
 * Gives every tool of a session a valid, unique model-facing name. Deterministic: the requests are
 * named in the order given (callers pass a canonical order), the first holder of a name keeps it and
 * every later tool that would collide gets a suffix derived from its own origin. The bridge names are
 * reserved. Returns names in request order.
 */
export function assignModelNames(requests: readonly NameRequest[]): string[] {
  const taken = new Set<string>(BRIDGE_TOOL_NAMES);
  return requests.map((request) => {
    let name = baseModelName(request);
    for (let salt = 0; taken.has(name); salt += 1) {
      const hash = shortHash([request.toolset, request.originalName, String(salt)]);
      const stem = baseModelName(request).slice(0, MAX_MODEL_NAME_LENGTH - hash.length - 1);
      name = `${stem}_${hash}`;
    }
    taken.add(name);
    return name;
  });
}
