import { describe, expect, it } from 'vitest';
import { coreToolset, tool, toolset } from './testing';
import { parseToolSearchConfig } from './config';
import { buildSessionTools, isDeferrable } from './session-tools';
import { ToolsetSchema } from './tool';

const defaults = parseToolSearchConfig(undefined).config;

describe('isDeferrable', () => {
  it('never defers a bridge name, even when the defer list names it', () => {
    const config = parseToolSearchConfig({ defer: ['tool_search'] }).config;
    for (const name of ['tool_search', 'tool_describe', 'tool_call']) {
      expect(isDeferrable({ name, kind: 'plugin', alwaysLoad: false }, config)).toBe(false);
    }
  });

  it('keeps the core working set direct', () => {
    for (const name of [
      'terminal',
      'read_file',
      'write_file',
      'patch',
      'search_files',
      'memory',
      'web_search',
      'clarify',
      'execute_code',
      'delegate_task',
    ]) {
      expect(isDeferrable({ name, kind: 'core', alwaysLoad: false }, defaults)).toBe(false);
    }
  });

  it('defers the curated cold core tools by default, but not clarify', () => {
    expect(isDeferrable({ name: 'computer_use', kind: 'core', alwaysLoad: false }, defaults)).toBe(true);
    expect(isDeferrable({ name: 'todo_list', kind: 'core', alwaysLoad: false }, defaults)).toBe(true);
    expect(isDeferrable({ name: 'clarify', kind: 'core', alwaysLoad: false }, defaults)).toBe(false);
  });

  it('follows a user defer list that replaces the curated one', () => {
    const config = parseToolSearchConfig({ defer: ['terminal'] }).config;
    expect(isDeferrable({ name: 'terminal', kind: 'core', alwaysLoad: false }, config)).toBe(true);
    expect(isDeferrable({ name: 'computer_use', kind: 'core', alwaysLoad: false }, config)).toBe(false);
  });

  it('defers MCP and plugin tools unless they are marked alwaysLoad', () => {
    expect(isDeferrable({ name: 'github__create_issue', kind: 'mcp', alwaysLoad: false }, defaults)).toBe(true);
    expect(isDeferrable({ name: 'weather', kind: 'plugin', alwaysLoad: false }, defaults)).toBe(true);
    expect(isDeferrable({ name: 'github__create_issue', kind: 'mcp', alwaysLoad: true }, defaults)).toBe(false);
  });

  it('keeps a plugin tool that carries a core name direct', () => {
    expect(isDeferrable({ name: 'terminal', kind: 'plugin', alwaysLoad: false }, defaults)).toBe(false);
  });
});

describe('buildSessionTools', () => {
  const github = toolset('github', [tool('create_issue', 'Open an issue.'), tool('list_repos')]);
  const core = coreToolset(['terminal', 'memory', 'computer_use', 'tool_search']);

  it('splits visible and deferred tools and drops incoming bridge definitions', () => {
    const table = buildSessionTools([github, core], defaults);
    expect(table.visible.map((t) => t.name)).toEqual(['terminal', 'memory']);
    expect(table.deferred.map((t) => t.name)).toEqual(['computer_use', 'github__create_issue', 'github__list_repos']);
    expect(table.byName.has('tool_search')).toBe(false);
  });

  it("keeps an MCP server's own bridge-named tools under their namespaced names", () => {
    const chained = toolset('upstream', [tool('tool_search', 'Search the upstream catalog.'), tool('tool_call')]);
    const table = buildSessionTools([chained, core], defaults);
    expect(table.deferred.map((t) => t.name)).toEqual(
      expect.arrayContaining(['upstream__tool_search', 'upstream__tool_call']),
    );
    expect(table.byName.has('tool_search')).toBe(false);
  });

  it('maps each model-facing name back to its toolset and original name', () => {
    const table = buildSessionTools([github], defaults);
    expect(table.byName.get('github__create_issue')).toMatchObject({
      originalName: 'create_issue',
      toolset: 'mcp-github',
      label: 'github',
      kind: 'mcp',
    });
  });

  it('does not depend on the order of the toolsets', () => {
    const linear = toolset('linear', [tool('get_issue')]);
    const a = buildSessionTools([github, linear, core], defaults);
    const b = buildSessionTools([core, linear, github], defaults);
    expect([...a.byName.keys()]).toEqual([...b.byName.keys()]);
  });

  it('lists an unavailable server without putting its tools in the catalog', () => {
    const down = toolset('slack', [tool('post_message')], { unavailable: 'server disconnected' });
    const table = buildSessionTools([github, down], defaults);
    expect(table.deferred.map((t) => t.name)).not.toContain('slack__post_message');
    expect(table.unavailable).toEqual([
      { label: 'slack', toolset: 'mcp-slack', toolCount: 1, reason: 'server disconnected' },
    ]);
  });

  it('marks parallel safety from annotations, server opt-in and plugin declarations', () => {
    const docs = toolset('docs', [tool('search_docs')], { supports_parallel_tool_calls: true });
    const mixed = toolset('gh', [tool('read', '', [], [], { annotations: { readOnlyHint: true } }), tool('write')]);
    const plugin = ToolsetSchema.parse({
      id: 'weather',
      kind: 'plugin',
      tools: [tool('forecast'), tool('alert')],
      parallel_safe_tools: ['forecast'],
    });
    const table = buildSessionTools([docs, mixed, plugin], defaults);
    const safe = (name: string) => table.byName.get(name)?.parallelSafe;
    expect(safe('docs__search_docs')).toBe(true);
    expect(safe('gh__read')).toBe(true);
    expect(safe('gh__write')).toBe(false);
    expect(safe('forecast')).toBe(true);
    expect(safe('alert')).toBe(false);
  });

  it('keeps a tool whose toolset is unknown to the core set visible (never dropped)', () => {
    const table = buildSessionTools([coreToolset(['xx_unknown_tool'])], defaults);
    expect(table.visible.map((t) => t.name)).toEqual(['xx_unknown_tool']);
    expect(table.deferred).toEqual([]);
  });
});
