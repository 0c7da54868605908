import { describe, expect, it } from 'vitest';
import { parseCatalogFiles } from './catalog-file';

describe('parseCatalogFiles', () => {
  it('groups records by server into MCP toolsets and combines files', () => {
    const result = parseCatalogFiles([
      {
        source: 'a.jsonl',
        text: '{"server":"github","name":"create_issue","description":"Open an issue.","inputSchema":{"type":"object"}}\n\n',
      },
      {
        source: 'b.jsonl',
        text: '{"server":"github","name":"list_repos"}\n{"server":"@x/y","name":"z","readOnly":true}\n',
      },
    ]);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.toolCount).toBe(3);
    expect(result.toolsets.map((t) => [t.id, t.label, t.tools.length])).toEqual([
      ['mcp-github', 'github', 2],
      ['mcp-@x/y', '@x/y', 1],
    ]);
    expect(result.toolsets[1]?.tools[0]?.annotations).toEqual({ readOnlyHint: true });
    expect(result.toolsets[0]?.tools[1]?.inputSchema).toEqual({ type: 'object', properties: {} });
  });

  it('keeps what a line declares about its tool (seed 002): risk, tags, alwaysLoad, hints, output schema', () => {
    const line = {
      server: 'bank',
      name: 'wire_money',
      risk: 'high',
      tags: ['payments'],
      alwaysLoad: true,
      annotations: { title: 'Wire money', destructiveHint: true, idempotentHint: false, openWorldHint: 'yes' },
      outputSchema: { type: 'object', properties: { id: { type: 'string' } } },
    };
    const result = parseCatalogFiles([{ source: 'bank.jsonl', text: JSON.stringify(line) }]);
    if (!result.ok) throw new Error(result.error.message);
    expect(result.toolsets[0]?.tools[0]).toMatchObject({
      risk: 'high',
      tags: ['payments'],
      alwaysLoad: true,
      // A hint of the wrong type is left out rather than guessed.
      annotations: { title: 'Wire money', destructiveHint: true, idempotentHint: false },
      outputSchema: line.outputSchema,
    });
    expect(result.toolsets[0]?.tools[0]?.annotations).not.toHaveProperty('openWorldHint');
    const bad = parseCatalogFiles([
      { source: 'bank.jsonl', text: `\n${JSON.stringify({ ...line, risk: 'extreme' })}` },
    ]);
    expect(bad).toMatchObject({ ok: false, error: { source: 'bank.jsonl', line: 2 } });
    expect(bad.ok ? '' : bad.error.message).toMatch(/^risk: /);
  });

  it('gives every server a valid toolset id, and distinct names distinct ids', () => {
    const result = parseCatalogFiles([
      {
        source: 'a.jsonl',
        text: '{"server":"MCP Server Chart","name":"a"}\n{"server":"MCP_Server_Chart","name":"b"}\n',
      },
    ]);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const ids = result.toolsets.map((t) => t.id);
    expect(ids[0]).toMatch(/^mcp-MCP_Server_Chart-[0-9a-f]{8}$/);
    expect(ids[1]).toBe('mcp-MCP_Server_Chart');
    expect(result.toolsets.map((t) => t.label)).toEqual(['MCP Server Chart', 'MCP_Server_Chart']);
  });

  it('names the file and line of malformed JSON', () => {
    const result = parseCatalogFiles([{ source: 'bad.jsonl', text: '{"server":"a","name":"b"}\n{oops\n' }]);
    expect(result).toMatchObject({ ok: false, error: { source: 'bad.jsonl', line: 2 } });
    if (!result.ok) expect(result.error.message).toContain('not valid JSON');
  });

  it('names the field of a record that is not a tool', () => {
    const result = parseCatalogFiles([{ source: 'bad.jsonl', text: '{"server":"a"}\n' }]);
    expect(result).toMatchObject({ ok: false, error: { line: 1 } });
    if (!result.ok) expect(result.error.message).toMatch(/^name: /);
  });
});
