import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { toCallToolResult } from './call-result';
import type { FrontDoorBackend, FrontDoorIdentity } from './front-door-types';

/**
 * The MCP server of one MCP session, acting as one toolsearch session: `tools/list` is its
 * assembled surface, `tools/call` goes through the dispatcher. The low-level SDK `Server` is used
 * because tools carry arbitrary JSON Schemas.
 */
export function sessionServer(
  identity: FrontDoorIdentity,
  backend: FrontDoorBackend,
  observe: (method: string, outcome: string) => void,
): Server {
  const server = new Server(
    { name: 'toolsearch', version: '0.1.0' },
    {
      capabilities: { tools: { listChanged: true } },
      instructions:
        'Tools beyond those listed are reachable through tool_search (find), tool_describe (read a schema) and tool_call (run).',
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    try {
      const tools = await backend.listTools(identity);
      observe('tools/list', 'ok');
      return { tools };
    } catch (error) {
      observe('tools/list', 'error');
      throw new McpError(ErrorCode.InvalidRequest, (error as Error).message);
    }
  });
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    // A held call keeps the request open until it is decided and ran (http.heldCallWaitMs); a
    // client that sent a progress token hears every few seconds that it still waits.
    const progressToken = request.params._meta?.progressToken;
    const follow = {
      signal: extra.signal,
      onWaiting: async (elapsedMs: number) => {
        if (progressToken === undefined) return;
        await extra.sendNotification({
          method: 'notifications/progress',
          params: {
            progressToken,
            progress: Math.round(elapsedMs / 1000),
            message: 'waiting for a person to approve this call',
          },
        });
      },
    };
    const envelope = await backend.callTool(identity, request.params.name, request.params.arguments ?? {}, follow);
    observe(
      'tools/call',
      envelope.status === 'pending_approval'
        ? 'pending_approval'
        : envelope.ok
          ? 'ok'
          : (envelope.error?.code ?? 'error'),
    );
    return toCallToolResult(envelope, request.params.name);
  });
  return server;
}
