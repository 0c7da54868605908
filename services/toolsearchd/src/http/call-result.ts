import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { CallEnvelope } from '@toolsearch/proto';

/**
 * One dispatch envelope as an MCP tool result. A `tool_call` of one tool answers as that tool
 * would; a held call says so, with its approval id (also in `_meta`, for clients that act on it).
 */
export function toCallToolResult(envelope: CallEnvelope, called: string): CallToolResult {
  // Only tool_call wraps its entries' envelopes in data.results (tool_search has a results field of its own).
  const nested =
    called === 'tool_call' ? (envelope.data as { results?: unknown } | null | undefined)?.results : undefined;
  if (Array.isArray(nested) && nested.length === 1) return toCallToolResult(nested[0] as CallEnvelope, '');
  if (envelope.status === 'pending_approval') {
    const ids =
      envelope.approval_id !== undefined
        ? [envelope.approval_id]
        : (Array.isArray(nested) ? (nested as CallEnvelope[]) : [])
            .map((entry) => entry.approval_id)
            .filter((id): id is string => id !== undefined);
    const what = ids.length === 1 ? 'This call is' : 'Some of these calls are';
    return {
      content: [
        {
          type: 'text',
          text: `${what} waiting for a person to approve (approval id ${ids.join(', ')}) and has not run. Do not repeat it; tell the user it needs approval, or go on without it.`,
        },
        ...(Array.isArray(nested) ? [{ type: 'text' as const, text: JSON.stringify({ results: nested }) }] : []),
      ],
      _meta: {
        'toolsearch/status': 'pending_approval',
        ...(ids.length === 1 ? { 'toolsearch/approval_id': ids[0] } : { 'toolsearch/approval_ids': ids }),
      },
    };
  }
  const data = envelope.data as { content?: unknown; structuredContent?: unknown } | null | undefined;
  const mcpShaped = data !== null && typeof data === 'object' && Array.isArray(data.content);
  if (!envelope.ok) {
    const code = envelope.error?.code ?? 'TOOL_ERROR';
    return {
      isError: true,
      content: [
        { type: 'text', text: `${code}: ${envelope.error?.message ?? 'the call failed'}` },
        ...(mcpShaped ? (data.content as CallToolResult['content']) : []),
        ...(Array.isArray(nested) ? [{ type: 'text' as const, text: JSON.stringify({ results: nested }) }] : []),
      ],
      _meta: { 'toolsearch/error_code': code },
    };
  }
  if (mcpShaped) {
    return {
      content: data.content as CallToolResult['content'],
      ...(data.structuredContent !== undefined
        ? { structuredContent: data.structuredContent as Record<string, unknown> }
        : {}),
    };
  }
  return { content: [{ type: 'text', text: typeof data === 'string' ? data : JSON.stringify(data ?? null) }] };
}
