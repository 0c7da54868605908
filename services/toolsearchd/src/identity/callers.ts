import type { Caller } from './credentials';

/** An MCP endpoint API key, as the owner of the gateway session it opens for its connection. */
export function mcpKeyCaller(keyName: string): Caller {
  return { kind: 'key', name: `mcp:${keyName}`, roles: new Set(['gateway']), shareSessions: false };
}

/** Whose sessions a caller may list: every session for operators and sharing gateways, else its own. */
export function visibleOwner(caller: Caller): string | undefined {
  if (caller.kind === 'key' && (caller.roles.has('operator') || caller.shareSessions)) return undefined;
  // Only keys pass the rule of sessions.list; a session token would match no owner.
  return caller.kind === 'key' ? caller.name : '';
}
