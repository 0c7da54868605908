/** Stable codes of the errors the bridge tools return to the model. */
export const BRIDGE_ERROR_CODES = {
  /** The arguments of a bridge call are missing or of the wrong shape. */
  BAD_ARGUMENTS: 'BAD_ARGUMENTS',
  /** More queries, names or calls than one bridge call may carry. */
  TOO_MANY: 'TOO_MANY',
  /** `tool_call` was asked to call a bridge tool. */
  BRIDGE_RECURSION: 'BRIDGE_RECURSION',
  /** No tool of that name exists in this session. */
  UNKNOWN_TOOL: 'UNKNOWN_TOOL',
  /** The tool is in the direct tool list; call it directly, not through the bridge. */
  NOT_DEFERRED: 'NOT_DEFERRED',
  /** The tool exists but is not offered to this session; retrying will not help. */
  NOT_IN_SESSION: 'NOT_IN_SESSION',
  /** The arguments do not match the tool's schema; the tool did not run. */
  INVALID_ARGUMENTS: 'INVALID_ARGUMENTS',
  /** The tool's definition was quarantined by the tenant's vetting until an operator releases it. */
  TOOL_QUARANTINED: 'TOOL_QUARANTINED',
  /** The tool's definition changed and waits for an operator's review; retrying will not help. */
  TOOL_CHANGE_PENDING: 'TOOL_CHANGE_PENDING',
} as const;
export type BridgeErrorCode = (typeof BRIDGE_ERROR_CODES)[keyof typeof BRIDGE_ERROR_CODES];

/** An error as the model sees it: a message it can act on, plus a stable code and details. */
export interface BridgeError {
  readonly code: BridgeErrorCode;
  readonly message: string;
  readonly details?: Readonly<Record<string, unknown>>;
}

export function bridgeError(code: BridgeErrorCode, message: string, details?: Record<string, unknown>): BridgeError {
  return details === undefined ? { code, message } : { code, message, details };
}

/** The JSON a model receives for a failed bridge call: `{ error, code, ...details }`. */
export function errorPayload(error: BridgeError): Record<string, unknown> {
  return { error: error.message, code: error.code, ...(error.details ?? {}) };
}
