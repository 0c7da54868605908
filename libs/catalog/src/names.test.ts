import { describe, expect, it } from 'vitest';
import { hasSharedData, loadSharedCatalog, reportSharedDataSkip } from './testing';
import { assignModelNames, baseModelName, MODEL_NAME_PATTERN, slugify } from './names';

describe('slugify', () => {
  it('keeps valid names as they are', () => {
    expect(slugify('create_issue')).toBe('create_issue');
    expect(slugify('get-weread-rank')).toBe('get-weread-rank');
  });

  it('turns scoped package names and spaces into underscores', () => {
    expect(slugify('@nickclyde/duckduckgo-mcp-server')).toBe('nickclyde_duckduckgo-mcp-server');
    expect(slugify('Transfermarkt search')).toBe('Transfermarkt_search');
    expect(slugify('get /v1/users/{id}')).toBe('get_v1_users_id');
  });

  it('drops characters outside the function-name alphabet, including non-Latin scripts', () => {
    expect(slugify('天气查询')).toBe('');
    expect(slugify('café.menu')).toBe('cafe_menu');
  });
});

describe('baseModelName', () => {
  it('namespaces MCP tools by their server slug', () => {
    expect(baseModelName({ toolset: 'mcp-github', originalName: 'create_issue', namespace: 'github' })).toBe(
      'github__create_issue',
    );
  });

  it('keeps core and plugin tool names without a namespace', () => {
    expect(baseModelName({ toolset: 'core', originalName: 'terminal' })).toBe('terminal');
  });

  it('fits very long names into 64 characters with a hash of their origin', () => {
    const name = baseModelName({
      toolset: 'mcp-x',
      originalName: 'a_really_long_tool_name_that_goes_on_and_on_and_on_for_many_more_characters',
      namespace: '@some-organisation/an-mcp-server-with-a-long-name',
    });
    expect(name.length).toBe(64);
    expect(name).toMatch(MODEL_NAME_PATTERN);
    expect(name.startsWith('some-organisation_an-mcp-server')).toBe(true);
  });

  it('gives a non-Latin tool name a stable placeholder stem', () => {
    expect(baseModelName({ toolset: 'mcp-cn', originalName: '天气', namespace: 'cn' })).toBe('cn__tool');
  });
});

describe('assignModelNames', () => {
  it('keeps the first holder of a name and suffixes later colliders deterministically', () => {
    const requests = [
      { toolset: 'mcp-a', originalName: 'x.y', namespace: 'srv' },
      { toolset: 'mcp-a', originalName: 'x y', namespace: 'srv' },
      { toolset: 'mcp-a', originalName: 'x_y', namespace: 'srv' },
    ];
    const names = assignModelNames(requests);
    expect(names[0]).toBe('srv__x_y');
    expect(new Set(names).size).toBe(3);
    for (const name of names) expect(name).toMatch(MODEL_NAME_PATTERN);
    expect(assignModelNames(requests)).toEqual(names);
  });

  it('never hands out a bridge tool name', () => {
    const [name] = assignModelNames([{ toolset: 'plugin', originalName: 'tool_search' }]);
    expect(name).not.toBe('tool_search');
    expect(name).toMatch(/^tool_search_[0-9a-f]{6}$/);
  });

  it('keeps the same tool name apart on different servers', () => {
    const names = assignModelNames([
      { toolset: 'mcp-a', originalName: 'search', namespace: 'a' },
      { toolset: 'mcp-b', originalName: 'search', namespace: 'b' },
    ]);
    expect(names).toEqual(['a__search', 'b__search']);
  });

  describe.skipIf(!hasSharedData())('on every real catalog', () => {
    it('gives every tool a valid, unique name', () => {
      const toolsets = loadSharedCatalog('toucan', 'toucanScraped', 'stabletoolbench', 'livemcpbench', 'github');
      const requests = toolsets.flatMap((toolset) =>
        toolset.tools.map((tool) => ({
          toolset: toolset.id,
          originalName: tool.name,
          namespace: toolset.label ?? toolset.id,
        })),
      );
      const names = assignModelNames(requests);
      expect(names.length).toBeGreaterThan(20_000);
      expect(new Set(names).size).toBe(names.length);
      for (const name of names) expect(name).toMatch(MODEL_NAME_PATTERN);
    });
  });
  reportSharedDataSkip(it.skip);
});
