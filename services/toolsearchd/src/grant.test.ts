import { describe, expect, it } from 'vitest';
import { ToolsetSchema, type Toolset } from '@toolsearch/catalog';
import { applyGrant, exceedsParent, grantTests, grantWarnings, narrowGrant } from './grant';

const github = ToolsetSchema.parse({
  id: 'mcp-github',
  kind: 'mcp',
  tools: [{ name: 'create_issue' }, { name: 'delete_repo' }, { name: 'list_repos' }],
});
const slack = ToolsetSchema.parse({ id: 'mcp-slack', kind: 'mcp', tools: [{ name: 'post_message' }] });

describe('grants', () => {
  it('refuses a child with a toolset its parent lacks, or a pattern reaching a tool the parent cannot', () => {
    const registered = [github, slack];
    const parent = { toolsets: ['mcp-github', 'mcp-slack'] };
    expect(exceedsParent({ toolsets: ['mcp-github'] }, parent, [], registered)).toBeUndefined();
    expect(exceedsParent({ toolsets: ['mcp-linear'] }, { toolsets: ['mcp-github'] }, [], registered)).toContain(
      'mcp-linear',
    );
    const listing = { toolsets: ['mcp-github'], allow: ['list_*'] };
    expect(exceedsParent({ toolsets: ['mcp-github'], allow: ['*'] }, listing, [], registered)).toBe(
      'the parent session cannot reach mcp-github/create_issue, mcp-github/delete_repo',
    );
    // A narrower pattern than the parent's (compared as strings, this was refused).
    expect(exceedsParent({ toolsets: ['mcp-github'], allow: ['list_repos'] }, listing, [], registered)).toBeUndefined();
    // The grandparent's allow list binds too.
    expect(
      exceedsParent(
        { toolsets: ['mcp-github'], allow: ['*_repo*'] },
        { toolsets: ['mcp-github'] },
        [['list_*']],
        registered,
      ),
    ).toBe('the parent session cannot reach mcp-github/delete_repo');
  });

  it("matches the model-facing name of an MCP server's tools as well as the original and toolset/name", () => {
    const reached = (allow: string[]) =>
      applyGrant([github], { toolsets: ['mcp-github'], allow })[0]?.tools.map((tool) => tool.name);
    expect(reached(['github__delete*'])).toEqual(['delete_repo']);
    expect(reached(['mcp-github/list_*', 'create_issue'])).toEqual(['create_issue', 'list_repos']);
    expect(reached(['github__list_repos'])).toEqual(['list_repos']);
  });

  it("keeps a child within its ancestors' allow lists when a toolset changes after it opened", () => {
    const grown = ToolsetSchema.parse({ ...github, tools: [...github.tools, { name: 'merge_pr' }] });
    const [child] = applyGrant([grown], { toolsets: ['mcp-github'], allow: ['*'] }, [['list_*', 'merge_*']]);
    expect(child?.tools.map((tool) => tool.name)).toEqual(['list_repos', 'merge_pr']);
  });

  it('warns of toolsets not registered and patterns that reach no tool', () => {
    expect(
      grantWarnings({ toolsets: ['mcp-github', 'mcp-nope'], allow: ['github__list*', 'merge_*'], deny: ['x'] }, [
        github,
        slack,
      ]),
    ).toEqual([
      "grant.toolsets: no toolset 'mcp-nope' is registered; the session will see it once it is.",
      "grant.allow[1] 'merge_*' matches no tool of the granted toolsets (patterns match the original name, '<toolset>/<name>' or the model-facing name, case-sensitively).",
      "grant.deny[0] 'x' matches no tool of the granted toolsets (patterns match the original name, '<toolset>/<name>' or the model-facing name, case-sensitively).",
    ]);
  });

  it('counts what applying a grant costs: wildcard patterns times names, exact names free', () => {
    const grant = { toolsets: ['mcp-github'], allow: ['list_*', 'create_issue'], deny: ['*x*'] };
    expect(grantTests(grant, [['a*']], [github, slack])).toBe(3 * 3 * 3);
    expect(grantTests({ toolsets: ['mcp-github'], allow: ['create_issue'] }, [], [github])).toBe(0);
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

  it('returns the same object for the same grant where the caller keeps them, so caches hit', () => {
    const grant = { toolsets: ['mcp-github'], deny: ['delete_*'] };
    const memo = new Map<string, Toolset>();
    const kept = {
      getOrMake: (toolset: Toolset, key: string, make: () => Toolset) => {
        const found = memo.get(`${toolset.id}\u0000${key}`) ?? make();
        memo.set(`${toolset.id}\u0000${key}`, found);
        return found;
      },
    };
    expect(applyGrant([github], grant, [], kept)[0]).toBe(applyGrant([github], { ...grant }, [], kept)[0]);
    // Without a place to keep them, each call narrows anew (nothing is held per grant).
    expect(applyGrant([github], grant)[0]).not.toBe(applyGrant([github], grant)[0]);
    expect(applyGrant([github], grant)[0]).toEqual(applyGrant([github], grant, [], kept)[0]);
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
