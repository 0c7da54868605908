import { jsonDepthWithin, valueDepthWithin } from '@toolsearch/bridge';
import { WIRE_ERROR_CODES } from '@toolsearch/proto';

/**
 * The bounds every tenant JSON meets before anything parses or walks it: nesting depth
 * (`limits.maxJsonDepth`) and size. `jsonDepthWithin(text, max)` is the linear scan of raw text or
 * bytes; edges that take JSON of their own (the MCP body over HTTP) call it before `JSON.parse`.
 */
export { jsonDepthWithin, valueDepthWithin };

/** The config keys of the request limits, named in every refusal so a caller knows what to ask for. */
export type LimitName =
  | 'limits.maxPayloadBytes'
  | 'limits.maxJsonDepth'
  | 'limits.maxToolsPerToolset'
  | 'limits.maxToolBytes'
  | 'limits.maxSessionBytes'
  | 'max_payload';

/**
 * A request over one of the daemon's limits: the caller's fault, answered with `code`
 * (`PAYLOAD_TOO_LARGE` or `BAD_REQUEST`), never `INTERNAL`. `limit` says which bound it hit.
 */
export class LimitExceededError extends Error {
  constructor(
    readonly code: typeof WIRE_ERROR_CODES.PAYLOAD_TOO_LARGE | typeof WIRE_ERROR_CODES.BAD_REQUEST,
    readonly limit: LimitName,
    message: string,
  ) {
    super(message);
    this.name = 'LimitExceededError';
  }
}

/** Throws BAD_REQUEST when JSON text (or its UTF-8 bytes) nests deeper than `max`. */
export function assertJsonDepth(text: string | Uint8Array, max: number, what = 'the payload'): void {
  if (!jsonDepthWithin(text, max)) throw depthError(max, what);
}

/** Throws BAD_REQUEST when a built value nests deeper than `max` (measured without recursion). */
export function assertValueDepth(value: unknown, max: number, what: string): void {
  if (!valueDepthWithin(value, max)) throw depthError(max, what);
}

function depthError(max: number, what: string): LimitExceededError {
  return new LimitExceededError(
    WIRE_ERROR_CODES.BAD_REQUEST,
    'limits.maxJsonDepth',
    `${what} nests arrays and objects deeper than ${max} levels (limits.maxJsonDepth).`,
  );
}

/** Throws PAYLOAD_TOO_LARGE when a request payload is over `limits.maxPayloadBytes`. */
export function assertPayloadSize(bytes: number, max: number): void {
  if (bytes > max)
    throw new LimitExceededError(
      WIRE_ERROR_CODES.PAYLOAD_TOO_LARGE,
      'limits.maxPayloadBytes',
      `the payload is ${bytes} bytes; at most ${max} are accepted (limits.maxPayloadBytes).`,
    );
}

/**
 * Throws PAYLOAD_TOO_LARGE when one tool definition is over `limits.maxToolBytes` as JSON. Every
 * tool is token-counted and indexed in one piece when a surface is assembled, so one huge schema
 * (a payload-sized string inside it) held the event loop for every tenant; real definitions stay
 * far below the default (the largest in the public catalogs is about 53 KB).
 */
export function assertToolSizes(tools: readonly { name: string }[], max: number, what: string): void {
  for (const tool of tools) {
    const bytes = Buffer.byteLength(JSON.stringify(tool));
    if (bytes > max)
      throw new LimitExceededError(
        WIRE_ERROR_CODES.PAYLOAD_TOO_LARGE,
        'limits.maxToolBytes',
        `${what}: tool '${tool.name.slice(0, 100)}' is ${bytes} bytes as JSON; a tool definition holds at most ${max} (limits.maxToolBytes). Shorten its description or schema.`,
      );
  }
}

/**
 * Refuses a session that takes more than `max` bytes as stored (`limits.maxSessionBytes`): its
 * grant, config and the core tools it brings, as JSON. Every session is stored in Redis and held
 * by the replicas that serve it; the tenant's `quotas.sessionBytes` counts them together.
 */
export function assertSessionSize(bytes: number, max: number): void {
  if (bytes > max)
    throw new LimitExceededError(
      WIRE_ERROR_CODES.PAYLOAD_TOO_LARGE,
      'limits.maxSessionBytes',
      `the session is ${bytes} bytes as stored (its grant, config and core tools); a session takes at most ${max} (limits.maxSessionBytes). Bring fewer or shorter core tools (or register them as a toolset and grant it), or shorten the grant's patterns.`,
    );
}
