import { describe, expect, it } from 'vitest';
import { toCallToolResult } from '../http/mcp-front-door';
import { execEnvelope } from './exec-envelope';
import type { ExecOutcome } from './executors.adapter';

// What the MCP pool gives for a tool that reports `isError`: its text as the message and as content.
const failed: ExecOutcome = {
  ok: false,
  error: { code: 'TOOL_ERROR', message: 'this tool always fails' },
  data: { content: [{ type: 'text', text: 'this tool always fails' }] },
};

describe('execEnvelope', () => {
  it("keeps a failed tool's text in the message only, when its content says the same", () => {
    expect(execEnvelope(failed)).toEqual({
      ok: false,
      data: { content: [] },
      error: { code: 'TOOL_ERROR', message: 'this tool always fails' },
      status: 'done',
    });
  });

  it('keeps content the message does not say: other text, images, structured content', () => {
    const image = { type: 'image', data: 'aGk=', mimeType: 'image/png' };
    const envelope = execEnvelope({
      ok: false,
      error: { code: 'TOOL_ERROR', message: 'quota exceeded' },
      data: {
        content: [{ type: 'text', text: 'quota exceeded' }, { type: 'text', text: 'retry after 60 s' }, image],
        structuredContent: { retry_after: 60 },
      },
    });
    expect(envelope.data).toEqual({
      content: [{ type: 'text', text: 'retry after 60 s' }, image],
      structuredContent: { retry_after: 60 },
    });
  });

  it('passes successes and failures without MCP content through as they are', () => {
    const data = { content: [{ type: 'text', text: 'done' }] };
    expect(execEnvelope({ ok: true, data })).toEqual({ ok: true, data, error: null, status: 'done' });
    expect(execEnvelope({ ok: false, error: { code: 'NO_EXECUTOR', message: 'nobody serves it' } })).toMatchObject({
      data: null,
      error: { code: 'NO_EXECUTOR', message: 'nobody serves it' },
    });
  });

  it('gives the model the text once through the MCP front door', () => {
    const texts = toCallToolResult(execEnvelope(failed), 'files__fail').content.map((part) =>
      part.type === 'text' ? part.text : '',
    );
    expect(texts).toEqual(['TOOL_ERROR: this tool always fails']);
  });
});
