import { describe, expect, it } from 'vitest';
import { ToolsetSchema } from '@toolsearch/catalog';
import { applyGrant, exceedsParent, narrowGrant } from './grant';

const github = ToolsetSchema.parse({
  id: 'mcp-github',
  kind: 'mcp',
  tools: [{ name: 'create_issue' }, { name: 'delete_repo' }, { name: 'list_repos' }],
});
const slack = ToolsetSchema.parse({ id: 'mcp-slack', kind: 'mcp', tools: [{ name: 'post_message' }] });

describe('grants', () => {
  it('refuses a child with a toolset or allow pattern its parent lacks', () => {
    expect(exceedsParent({ toolsets: ['mcp-github'] }, { toolsets: ['mcp-github', 'mcp-slack'] })).toBeUndefined();
    expect(exceedsParent({ toolsets: ['mcp-linear'] }, { toolsets: ['mcp-github'] })).toContain('mcp-linear');
    expect(
      exceedsParent({ toolsets: ['mcp-github'], allow: ['*'] }, { toolsets: ['mcp-github'], allow: ['list_*'] }),
    ).toContain('*');
  });

  it("gives a child its parent's allow list when it has none, and both deny lists", () => {
    expect(
      narrowGrant(
        { toolsets: ['mcp-github'], deny: ['b'] },
        { toolsets: ['mcp-github'], allow: ['list_*'], deny: ['a'] },
      ),
    ).toEqual({
      toolsets: ['mcp-github'],
      allow: ['list_*'],
      deny: ['a', 'b'],
    });
  });

  it('reaches only granted toolsets and tools', () => {
    expect(applyGrant([github, slack], { toolsets: ['mcp-slack'] })).toEqual([slack]);
    const [narrowed] = applyGrant([github], {
      toolsets: ['mcp-github'],
      allow: ['*_repo*'],
      deny: ['mcp-github/delete_*'],
    });
    expect(narrowed?.tools.map((tool) => tool.name)).toEqual(['list_repos']);
  });

  it('returns the same object for the same grant, so caches hit', () => {
    const grant = { toolsets: ['mcp-github'], deny: ['delete_*'] };
    expect(applyGrant([github], grant)[0]).toBe(applyGrant([github], { ...grant })[0]);
  });

  it('filters by wildcards with many stars in bounded time, case-sensitively', () => {
    const long = ToolsetSchema.parse({
      id: 'long',
      kind: 'plugin',
      tools: [{ name: 'a'.repeat(60) }, { name: `${'a'.repeat(59)}b` }, { name: `${'A'.repeat(59)}b` }],
    });
    const start = performance.now();
    const [narrowed] = applyGrant([long], { toolsets: ['long'], allow: ['*a*a*a*a*a*a*a*a*b'] });
    expect(performance.now() - start).toBeLessThan(50);
    expect(narrowed?.tools.map((tool) => tool.name)).toEqual([`${'a'.repeat(59)}b`]);
  });
});
