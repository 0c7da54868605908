import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TierEvent } from '@toolsearch/proto';
import { daemonFixture, eventually, serveExec, tenantId } from './harness';

const obj = { type: 'object', properties: {} };
const crm = {
  id: 'crm',
  kind: 'plugin',
  label: 'crm',
  tools: ['find_contact', 'create_deal', 'close_deal', 'merge_contacts'].map((name) => ({
    name,
    description: `CRM operation ${name.replace('_', ' ')}.`,
    inputSchema: obj,
  })),
};
const names = (tools: readonly unknown[]) =>
  tools.map((tool) => (tool as { function: { name: string } }).function.name);

describe('tool_search.keep_found in the daemon (seed 003: found tools stay available)', () => {
  const fixture = daemonFixture();
  const tenant = tenantId('keep');

  beforeAll(() => fixture.start());
  afterAll(() => fixture.stop());

  it('loads described and called tools directly in later assemblies, oldest out first, with a tier event', async () => {
    const client = await fixture.client(tenant);
    await serveExec(await fixture.connection(), tenant, 'crm');
    await client.putToolset(crm);
    const { session } = await client.openSession({
      grant: { toolsets: ['crm'] },
      model: { contextLength: 200_000 },
      config: { enabled: 'on', keep_found: 2 },
    });
    const before = await client.assemble(session.id);
    expect(before).toMatchObject({ activated: true, deferred_count: 4, kept: [] });
    const tiers: TierEvent[] = [];
    const sub = client.onTier(session.id, (event) => tiers.push(event));

    // Found by describing (the bridge lookup endpoint).
    await client.describe(session.id, ['find_contact']);
    await eventually(async () => expect((await client.assemble(session.id)).kept).toEqual(['find_contact']));
    await eventually(() => expect(tiers.at(-1)?.deferred_count).toBe(3));

    // Found by running it through tool_call in a turn; then called directly, as the model now can.
    const turn = await client.dispatch(session.id, [
      { id: 'c1', name: 'tool_call', arguments: { calls: [{ name: 'create_deal', arguments: {} }] } },
    ]);
    expect(turn.results[0]?.ok).toBe(true);
    const two = await eventually(async () => {
      const assembly = await client.assemble(session.id);
      expect(assembly.kept).toEqual(['find_contact', 'create_deal']);
      return assembly;
    });
    expect(names(two.tools)).toEqual(['find_contact', 'create_deal', 'tool_search', 'tool_describe', 'tool_call']);
    expect(two.deferred_count).toBe(2);
    const direct = await client.dispatch(session.id, [{ id: 'd1', name: 'create_deal', arguments: {} }]);
    expect(direct.results[0]?.ok).toBe(true);

    // Using a kept tool again changes nothing; a third find pushes the oldest out.
    expect((await client.assemble(session.id)).hash).toBe(two.hash);
    await client.describe(session.id, ['close_deal']);
    await eventually(async () =>
      expect((await client.assemble(session.id)).kept).toEqual(['create_deal', 'close_deal']),
    );
    sub.unsubscribe();
  });

  it('keeps nothing by default, and never a tool of another session', async () => {
    const client = await fixture.client(tenant);
    const open = (config: unknown) =>
      client.openSession({ grant: { toolsets: ['crm'] }, model: { contextLength: 200_000 }, config });
    const plain = (await open({ enabled: 'on' })).session;
    const keeper = (await open({ enabled: 'on', keep_found: 3 })).session;
    const other = (await open({ enabled: 'on', keep_found: 3 })).session;
    const hashBefore = (await client.assemble(plain.id)).hash;
    await client.describe(plain.id, ['merge_contacts']);
    await client.describe(keeper.id, ['merge_contacts']);
    await eventually(async () => expect((await client.assemble(keeper.id)).kept).toEqual(['merge_contacts']));
    const after = await client.assemble(plain.id);
    expect(after).toMatchObject({ kept: [], hash: hashBefore });
    expect((await client.assemble(other.id)).kept).toEqual([]);
  });
});
