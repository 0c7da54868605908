import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolsearchClient } from '@toolsearch/client';
import { daemonFixture, DOCS_TOOLSET as docs, tenantId, timed } from './harness';

// Patterns are tenant text, and the daemon serves every tenant on one thread: a pattern that makes
// a backtracking engine run for seconds would stall everyone. These are the ones that used to.
const HOSTILE_WHEN = '^(a+)+$';
const HOSTILE_QUERY = `${'a'.repeat(27)}!`;
const HOSTILE_GLOB = '*a*a*a*a*a*a*a*a*b';
/** Tool names of 60 characters; only the last one ends in `b`. */
const LONG_NAMES = [...['a', 'c', 'd', 'e', 'f'].map((last) => `${'a'.repeat(59)}${last}`), `${'a'.repeat(59)}b`];
const MATCHING = `${'a'.repeat(59)}b`;
const obj = { type: 'object', properties: {} };

const long = {
  id: 'long',
  kind: 'plugin',
  label: 'long',
  tools: LONG_NAMES.map((name) => ({ name, description: 'A tool with a long name.', inputSchema: obj, risk: 'high' })),
};

describe('hostile patterns', () => {
  const fixture = daemonFixture();
  const hostileTenant = tenantId('hostile');
  const otherTenant = tenantId('other');
  let hostile: ToolsearchClient;
  let other: ToolsearchClient;

  beforeAll(async () => {
    await fixture.start();
    hostile = await fixture.client(hostileTenant);
    other = await fixture.client(otherTenant);
    for (const client of [hostile, other]) {
      await client.putToolset(docs);
      await client.putToolset(long);
    }
  }, 30_000);
  afterAll(() => fixture.stop());

  it("answers a search against a catastrophic routing when in time, and another tenant's meanwhile", async () => {
    const config = { enabled: 'on', routing: [{ when: HOSTILE_WHEN, tools: ['read_page'], pin: true }] };
    const grant = { toolsets: ['docs'] };
    const model = { contextLength: 128_000 };
    const { session: mine } = await hostile.openSession({ grant, model, config });
    const { session: theirs } = await other.openSession({ grant, model });
    expect(mine.warnings).toEqual([]);
    // Warm both sessions up, so what is timed is the pattern and not a first assembly.
    await hostile.search(mine.id, ['documentation']);
    await other.search(theirs.id, ['documentation']);

    const [attack, bystander] = await Promise.all([
      timed(() => hostile.search(mine.id, [HOSTILE_QUERY])),
      timed(() => other.search(theirs.id, ['read a documentation page'])),
    ]);
    expect(attack.ms).toBeLessThan(200);
    expect(bystander.ms).toBeLessThan(200);
    const first = (reply: { result: unknown }) =>
      (reply.result as { results: { matches: string[] }[] }).results[0]?.matches[0];
    expect(first(bystander.value)).toBe('read_page');
    // The rule still works on the queries it matches.
    expect(first(await hostile.search(mine.id, ['AAAA']))).toBe('read_page');
  });

  it('drops a routing when RE2 cannot run, with a warning that names it', async () => {
    const { session } = await hostile.openSession({
      grant: { toolsets: ['docs'] },
      model: { contextLength: 128_000 },
      config: { routing: [{ when: '(?=page)p', tools: ['read_page'], pin: true }] },
    });
    expect(session.warnings).toHaveLength(1);
    expect(session.warnings[0]).toMatch(/^tools\.tool_search\.routing\[0\]\.when is not a valid regular expression/);
  });

  it('opens a session whose grant allows a many-star wildcard over 60-character names in time', async () => {
    const { value, ms } = await timed(() =>
      hostile.openSession({
        grant: { toolsets: ['long'], allow: [HOSTILE_GLOB] },
        model: { contextLength: 128_000 },
        config: { enabled: 'on' },
      }),
    );
    expect(ms).toBeLessThan(500);
    const described = await hostile.describe(value.session.id, LONG_NAMES);
    expect(Object.keys((described.result as { tools: Record<string, unknown> }).tools)).toEqual([MATCHING]);
  });

  it('lists held calls filtered by a many-star wildcard in time', async () => {
    const { session } = await other.openSession({
      grant: { toolsets: ['long'] },
      model: { contextLength: 128_000 },
      config: { enabled: 'on' },
    });
    for (const [index, name] of LONG_NAMES.entries()) {
      const { results } = await other.dispatch(session.id, [{ id: `c-${index}`, name, arguments: {} }]);
      expect(results[0]?.status).toBe('pending_approval');
    }

    const { value, ms } = await timed(() => other.listApprovals({ tool: HOSTILE_GLOB }));
    expect(ms).toBeLessThan(200);
    expect(value.approvals.map((approval) => approval.original_name)).toEqual([MATCHING]);
    expect((await other.listApprovals({ tool: 'A*' })).approvals).toHaveLength(LONG_NAMES.length);
  });
});
