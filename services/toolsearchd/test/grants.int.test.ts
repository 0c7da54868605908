import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolsearchClient } from '@toolsearch/client';
import { daemonFixture, tenantId } from './harness';

const obj = { type: 'object', properties: {} };
const github = (names: string[]) => ({
  id: 'mcp-github',
  kind: 'mcp',
  label: 'github',
  tools: names.map((name) => ({ name, description: `The ${name.replace('_', ' ')} tool.`, inputSchema: obj })),
});
const model = { contextLength: 128_000 };
const described = async (client: ToolsearchClient, session: string, names: string[]) =>
  Object.keys(((await client.describe(session, names)).result as { tools: Record<string, unknown> }).tools).sort();

describe('grants mean what they say', () => {
  const fixture = daemonFixture();
  let acme: ToolsearchClient;

  beforeAll(async () => {
    await fixture.start();
    acme = await fixture.client(tenantId('grants'));
    await acme.putToolset(github(['create_issue', 'list_issues', 'delete_repo']));
  }, 30_000);
  afterAll(() => fixture.stop());

  it('match model-facing names, accept a narrower child, and keep it within when the toolset grows', async () => {
    const { session: parent } = await acme.openSession({
      grant: { toolsets: ['mcp-github'], allow: ['github__create_*', 'github__list_*'] },
      model,
    });
    expect(parent.warnings).toEqual([]);
    expect(
      await described(acme, parent.id, ['github__create_issue', 'github__list_issues', 'github__delete_repo']),
    ).toEqual(['github__create_issue', 'github__list_issues']);
    // Narrower than the parent: accepted (compared as strings, it was refused).
    const { session: child } = await acme.openSession({
      role: 'subagent',
      parent: parent.id,
      grant: { toolsets: ['mcp-github'], allow: ['*_issue*'] },
      model,
    });
    // Reaching a tool the parent cannot: refused, naming it.
    await expect(
      acme.openSession({
        role: 'subagent',
        parent: parent.id,
        grant: { toolsets: ['mcp-github'], allow: ['*'] },
        model,
      }),
    ).rejects.toMatchObject({
      code: 'GRANT_EXCEEDS_PARENT',
      message: expect.stringContaining('mcp-github/delete_repo'),
    });
    // A tool added later that the child's pattern matches but the parent's do not stays out of the child.
    await acme.putToolset(github(['create_issue', 'list_issues', 'delete_repo', 'close_issue']));
    await expect
      .poll(() => described(acme, parent.id, ['github__close_issue', 'github__create_issue']), { timeout: 5000 })
      .toEqual(['github__create_issue']);
    expect(
      await described(acme, child.id, ['github__close_issue', 'github__create_issue', 'github__list_issues']),
    ).toEqual(['github__create_issue', 'github__list_issues']);
  });

  it('warn of a toolset that is not registered and of a pattern that reaches no tool', async () => {
    const { session } = await acme.openSession({
      grant: { toolsets: ['mcp-github', 'mcp-nowhere'], allow: ['github__*', 'gitlab__*'] },
      model,
    });
    expect(session.warnings).toEqual([
      "grant.toolsets: no toolset 'mcp-nowhere' is registered; the session will see it once it is.",
      expect.stringMatching(/^grant\.allow\[1\] 'gitlab__\*' matches no tool of the granted toolsets/),
    ]);
  });

  it('refuse a grant whose wildcards would cost too much to apply, saying which limit', async () => {
    const allow = Array.from({ length: 40 }, (_, i) => `*a*${i}*`);
    await expect(acme.openSession({ grant: { toolsets: ['mcp-github'], allow }, model })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringContaining('limits.maxGrantWildcards'),
    });
    // Exact names cost nothing and have no such limit.
    const exact = Array.from({ length: 500 }, (_, i) => `tool_${i}`);
    const { session } = await acme.openSession({
      grant: { toolsets: ['mcp-github'], allow: [...exact, 'list_issues'] },
      model,
    });
    expect(session.warnings).toHaveLength(11);
    expect(session.warnings[10]).toBe('490 more grant patterns match no tool of the granted toolsets.');
  });
});
