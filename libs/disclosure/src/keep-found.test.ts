import { describe, expect, it } from 'vitest';
import { parseToolSearchConfig } from '@toolsearch/catalog';
import { coreToolset, tool, toolset } from '@toolsearch/testing';
import { countTokens } from '@toolsearch/tokens';
import { assembleSession } from './assemble';
import { AssemblyCache } from './assembly-cache';
import type { OpenAiTool } from './formats';

const names = (tools: readonly unknown[]) => tools.map((t) => (t as OpenAiTool).function.name);

const github = toolset('github', [
  tool('create_issue', 'Open a new issue in a GitHub repository.', ['title', 'body'], ['title']),
  tool('list_repos', 'List repositories.'),
  tool('merge_pull_request', 'Merge a pull request.', ['number'], ['number']),
  tool('close_issue', 'Close an issue.', ['number'], ['number']),
]);
const core = coreToolset(['terminal', 'read_file']);
const keep2 = parseToolSearchConfig({ enabled: 'on', keep_found: 2 }).config;

function schemaTokens(name: string): number {
  const definition = github.tools.find((t) => `github__${t.name}` === name);
  if (definition === undefined) throw new Error(`no ${name}`);
  return countTokens(JSON.stringify({ name, description: definition.description, parameters: definition.inputSchema }));
}

describe('keep_found', () => {
  it('is 0 by default, clamped to 0–50, and warns about a bad value', () => {
    expect(parseToolSearchConfig(undefined).config.keep_found).toBe(0);
    const parsed = parseToolSearchConfig({ keep_found: 500 });
    expect(parsed.config.keep_found).toBe(50);
    expect(parsed.warnings.join(' ')).toMatch(/keep_found/);
  });

  it('changes nothing with the default 0, whatever the session found', () => {
    const config = parseToolSearchConfig({ enabled: 'on' }).config;
    const plain = assembleSession({ toolsets: [github, core], config, contextTokens: 200_000 });
    const found = assembleSession({
      toolsets: [github, core],
      config,
      contextTokens: 200_000,
      found: ['github__create_issue'],
    });
    expect(found.result.hash).toBe(plain.result.hash);
    expect(found.result.kept).toEqual([]);
  });

  it('loads the newest N found tools directly, oldest out first, before the bridge', () => {
    const found = ['github__list_repos', 'github__create_issue', 'github__close_issue'];
    const { result } = assembleSession({ toolsets: [github, core], config: keep2, contextTokens: 200_000, found });
    expect(result.kept).toEqual(['github__create_issue', 'github__close_issue']);
    expect(names(result.tools)).toEqual([
      'terminal',
      'read_file',
      'github__create_issue',
      'github__close_issue',
      'tool_search',
      'tool_describe',
      'tool_call',
    ]);
    expect(result.listing).not.toContain('close_issue');
    expect(result.listing).toContain('list_repos');
  });

  it('counts kept tools exactly: out of the deferred count and tokens, into the tool array', () => {
    const found = ['github__create_issue', 'github__merge_pull_request'];
    const without = assembleSession({ toolsets: [github, core], config: keep2, contextTokens: 200_000 }).result;
    const { result } = assembleSession({ toolsets: [github, core], config: keep2, contextTokens: 200_000, found });
    expect(result.deferrable_count).toBe(4);
    expect(result.deferred_count).toBe(2);
    expect(result.visible_count).toBe(without.visible_count + 2);
    const kept = schemaTokens('github__create_issue') + schemaTokens('github__merge_pull_request');
    expect(result.deferred_tokens).toBe(without.deferred_tokens - kept);
    const paid = result.tools.reduce((sum, t) => sum + countTokens(JSON.stringify(t)), 0);
    expect(result.tools_tokens).toBe(paid);
  });

  it('counts a name once, skips names the session no longer has, and never keeps a direct tool', () => {
    const found = ['github__create_issue', 'gone__tool', 'terminal', 'github__create_issue'];
    const { result } = assembleSession({ toolsets: [github, core], config: keep2, contextTokens: 200_000, found });
    expect(result.kept).toEqual(['github__create_issue']);
    expect(names(result.tools).filter((name) => name === 'terminal')).toHaveLength(1);
  });

  it('keeps nothing while the bridge is off, and never turns a budget-gated bridge off', () => {
    const gated = parseToolSearchConfig({ enabled: 'auto:50', keep_found: 4 }).config;
    const found = github.tools.map((t) => `github__${t.name}`);
    const off = assembleSession({ toolsets: [github, core], config: gated, contextTokens: 200_000, found });
    expect(off.result).toMatchObject({ activated: false, kept: [] });
    // Latched on: every deferrable tool kept, the bridge stays and the catalog is empty.
    const on = assembleSession({
      toolsets: [github, core],
      config: gated,
      contextTokens: 200_000,
      found,
      previouslyActive: true,
    });
    expect(on.result).toMatchObject({ activated: true, deferred_count: 0, deferred_tokens: 0 });
    expect(on.result.kept).toEqual(found);
  });

  it('still finds and calls kept tools through the bridge (the table keeps them deferrable)', () => {
    const { table } = assembleSession({
      toolsets: [github, core],
      config: keep2,
      contextTokens: 200_000,
      found: ['github__create_issue'],
    });
    expect(table.deferred.map((t) => t.name)).toContain('github__create_issue');
  });

  it('caches per found list when tools are kept, and ignores it when none are', () => {
    const cache = new AssemblyCache();
    const input = { toolsets: [github, core], config: keep2, contextTokens: 200_000 };
    const a = cache.assemble({ ...input, found: ['github__create_issue'] });
    const b = cache.assemble({ ...input, found: ['github__list_repos'] });
    expect(a.result.hash).not.toBe(b.result.hash);
    const none = parseToolSearchConfig({ enabled: 'on' }).config;
    cache.assemble({ ...input, config: none, found: ['github__create_issue'] });
    cache.assemble({ ...input, config: none, found: ['github__list_repos'] });
    expect(cache.stats.hits).toBe(1);
  });
});
