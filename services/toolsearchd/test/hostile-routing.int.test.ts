import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolsearchClient } from '@toolsearch/client';
import { daemonFixture, DOCS_TOOLSET as docs, tenantId, timed } from './harness';

// Routing patterns are learnt once per catalog, but a config may name 1,000 patterns and a tenant
// hold 20,000 tools: 20 million tests, over a second of the one thread every tenant shares when a
// single search did them all. Each search now learns within a budget, from its own tenant's
// allowance per second.
const obj = { type: 'object', properties: {} };
const PARTS = 4;
const PER_PART = 4_900;
/** 60-character names: 40 a's, the number, then ab's — every pattern below gets far before failing. */
const nameOf = (i: number) => `${'a'.repeat(40)}_${i.toString(36)}_${'ab'.repeat(8)}`.slice(0, 60);
const parts = Array.from({ length: PARTS }, (_, part) => ({
  id: `big${part}`,
  kind: 'plugin',
  label: `big${part}`,
  tools: Array.from({ length: PER_PART }, (_, i) => ({
    name: nameOf(part * PER_PART + i),
    description: 'A tool with a long name.',
    inputSchema: obj,
  })),
}));
/** 999 different many-star patterns that no name matches (no name has a '-'), then one that pins. */
const routing = [
  ...Array.from({ length: 10 }, (_, rule) => ({
    tools: Array.from({ length: rule < 9 ? 100 : 99 }, (_, i) => `${'*a'.repeat(12 + (i % 8))}*-${rule * 100 + i}*b`),
    pin: true,
  })),
  { tools: [nameOf(PARTS * PER_PART - 1)], pin: true },
];

describe('a routing config built to take long to learn', () => {
  const fixture = daemonFixture();
  const hostileTenant = tenantId('learn');
  const otherTenant = tenantId('bystander');
  let hostile: ToolsearchClient;
  let other: ToolsearchClient;

  beforeAll(async () => {
    await fixture.start();
    hostile = await fixture.client(hostileTenant);
    other = await fixture.client(otherTenant);
    for (const part of parts) await hostile.putToolset(part);
    await other.putToolset(docs);
  }, 60_000);
  afterAll(() => fixture.stop());

  it("costs its own tenant's searches a bounded time each, and another tenant's nothing", async () => {
    const model = { contextLength: 128_000 };
    const { session: mine } = await hostile.openSession({
      grant: { toolsets: parts.map((part) => part.id) },
      model,
      config: { enabled: 'on', routing },
    });
    expect(mine.warnings).toEqual([]);
    const { session: theirs } = await other.openSession({ grant: { toolsets: ['docs'] }, model });
    await other.search(theirs.id, ['documentation']);
    // Assembling and indexing 19,600 tools for the open is charged to its tenant in full
    // (docs/security.md, quotas: about 4,900 units, five seconds of its limit): its searches are
    // refused until it is paid. What is measured below is each search's own cost.
    const paidAt = Date.now();
    for (;;) {
      const refused = await hostile.search(mine.id, ['warm up']).then(
        () => false,
        (error: { code?: string }) => error.code === 'QUOTA_EXCEEDED',
      );
      if (!refused) break;
      expect(Date.now() - paidAt).toBeLessThan(15_000);
      await new Promise((done) => setTimeout(done, 250));
    }
    expect(Date.now() - paidAt).toBeGreaterThan(2_000);
    await new Promise((done) => setTimeout(done, 1_100));

    const attacks: number[] = [];
    const bystander: number[] = [];
    const attacker = (async () => {
      for (let i = 0; i < 20; i++) attacks.push((await timed(() => hostile.search(mine.id, ['long name']))).ms);
    })();
    const neighbour = (async () => {
      for (let i = 0; i < 40; i++) {
        const { value, ms } = await timed(() => other.search(theirs.id, ['read a documentation page']));
        bystander.push(ms);
        expect((value.result as { results: { matches: string[] }[] }).results[0]?.matches[0]).toBe('read_page');
      }
    })();
    await Promise.all([attacker, neighbour]);
    // One search that learnt all 20 million tests held the thread for over a second. (Measured:
    // 80 – 145 ms at most, 185 ms once in a clean-clone run with the whole suite beside it; the
    // bounds stay well under the second they guard against.)
    expect(Math.max(...attacks)).toBeLessThan(400);
    expect(Math.max(...bystander)).toBeLessThan(300);
    // Still learning (at 200,000 tests a second it takes this config ~100 s): the pin is not known yet.
    const reply = await hostile.search(mine.id, ['long name']);
    expect((reply.result as { results: { matches: string[] }[] }).results[0]?.matches[0]).not.toBe(
      nameOf(PARTS * PER_PART - 1),
    );
  }, 60_000);
});
