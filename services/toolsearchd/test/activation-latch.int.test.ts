import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TierEvent } from '@toolsearch/proto';
import type { Daemon } from '../src/daemon';
import { daemonFixture, eventually, startDaemon, tenantId } from './harness';

const obj = { type: 'object', properties: {} };
const small = {
  id: 'small',
  kind: 'plugin',
  label: 'small',
  tools: [{ name: 'ping', description: 'Answer pong.', inputSchema: obj }],
};
/** Enough schema text to pass 5 % of a 20,000-token window. */
const heavy = {
  id: 'heavy',
  kind: 'plugin',
  label: 'heavy',
  tools: Array.from({ length: 60 }, (_, i) => ({
    name: `report_${i}`,
    description: `Build report number ${i} of the quarterly business review, with charts, tables and notes for the board.`,
    inputSchema: {
      type: 'object',
      properties: { quarter: { type: 'string', description: 'Which quarter, for example 2026-Q3.' } },
    },
  })),
};

describe('auto:N in the daemon (seed 003)', () => {
  const fixture = daemonFixture();

  let own: Daemon;
  beforeAll(async () => {
    own = await fixture.start();
  });
  afterAll(() => fixture.stop());

  it('stays on for the session once on, after the tools that turned it on are gone', async () => {
    const client = await fixture.client(tenantId('latch'));
    await client.putToolset(small);
    const { session } = await client.openSession({
      grant: { toolsets: ['small', 'heavy'] },
      model: { contextLength: 20_000 },
      config: { enabled: 'auto:5' },
    });
    expect((await client.assemble(session.id)).activated).toBe(false);

    const tiers: TierEvent[] = [];
    const sub = client.onTier(session.id, (event) => tiers.push(event));
    await client.putToolset(heavy);
    await eventually(() => expect(tiers.length).toBeGreaterThan(0));
    const on = await client.assemble(session.id);
    expect(on).toMatchObject({ activated: true, mode: 'budget' });
    expect(on.tier).toBeGreaterThan(0);

    await client.deleteToolset('heavy');
    await eventually(() => expect(tiers.length).toBeGreaterThan(1));
    // One small tool is far under 5 %: without the latch this went back to tier 0.
    const after = await client.assemble(session.id);
    expect(after).toMatchObject({ activated: true, tier: 1 });
    expect(after.tools.map((tool) => (tool as { function: { name: string } }).function.name)).toContain('tool_search');
    sub.unsubscribe();
  });

  it('stays on across replicas and across a restart of every replica', async () => {
    const client = await fixture.client(tenantId('latch'));
    await client.putToolset(small);
    await client.putToolset(heavy);
    const { session } = await client.openSession({
      grant: { toolsets: ['small', 'heavy'] },
      model: { contextLength: 20_000 },
      config: { enabled: 'auto:5' },
    });
    expect((await client.assemble(session.id)).activated).toBe(true);
    // A second replica joins; requests now go to either.
    const second = await startDaemon(fixture.config);
    try {
      await client.deleteToolset('heavy');
      for (let i = 0; i < 8; i += 1)
        await eventually(async () => {
          const after = await client.assemble(session.id);
          expect(after).toMatchObject({ activated: true, deferred_count: 1 });
        });
    } finally {
      await second.close();
    }
    // Every replica stops and a new one starts: the latch comes back from Redis with the session.
    await own.close();
    const restarted = await startDaemon(fixture.config);
    try {
      const after = await client.assemble(session.id);
      expect(after).toMatchObject({ activated: true, mode: 'budget' });
    } finally {
      await restarted.close();
    }
  });
});
