import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolsearchClient } from '@toolsearch/client';
import { daemonFixture, tenantId, TEST_KEYS } from './harness';
import { ConsoleAgent } from './console-harness';

// The console and the held-call list are counted against the tenant's requests per second like
// every other request: a tenant's operator reloading pages, or a list walking thousands of held
// calls, uses its own second, not everyone's.
const SLOW = tenantId('slow');
const FAST = tenantId('fast');
const LISTER = tenantId('lister');
const fixture = daemonFixture({
  tenants: {
    [SLOW]: { quotas: { requestsPerSecond: 10 } },
    [FAST]: {},
    [LISTER]: { quotas: { requestsPerSecond: 400, heldApprovals: 5_000 } },
  },
});
let base = '';
const obj = { type: 'object', properties: {} };

async function signedIn(tenant: string): Promise<ConsoleAgent> {
  const agent = new ConsoleAgent(base);
  const { response } = await agent.signIn(tenant, TEST_KEYS.operator);
  expect(response.status).toBe(303);
  return agent;
}

/** Waits for the start of the next one-second window of requests per second. */
const nextSecond = () => new Promise((done) => setTimeout(done, 1_010 - (Date.now() % 1_000)));

describe('the console and held-call lists within the tenant quota', () => {
  beforeAll(async () => {
    const daemon = await fixture.start();
    base = `${daemon.httpAddress ?? ''}/console`;
  }, 30_000);
  afterAll(() => fixture.stop());

  it("refuses a tenant's console pages past its requests per second, and serves another tenant's", async () => {
    const slow = await signedIn(SLOW);
    const fast = await signedIn(FAST);
    await nextSecond();
    const pages = await Promise.all(Array.from({ length: 30 }, () => slow.request('/quotas')));
    const statuses = pages.map(({ response }) => response.status);
    expect(statuses.filter((status) => status === 200).length).toBeLessThanOrEqual(10);
    const refused = pages.find(({ response }) => response.status === 429);
    expect(refused?.text).toContain('requestsPerSecond');
    // The other tenant's operator is served in the same second.
    expect((await fast.request('/quotas')).response.status).toBe(200);
  });

  it('charges a held-call list for the held calls it reads', async () => {
    const client: ToolsearchClient = await fixture.client(LISTER);
    await client.putToolset({
      id: 'vault',
      kind: 'plugin',
      label: 'vault',
      tools: [{ name: 'rotate_secret', description: 'Rotate a secret.', inputSchema: obj, risk: 'high' }],
    });
    const { session } = await client.openSession({ grant: { toolsets: ['vault'] }, model: { contextLength: 128_000 } });
    // A turn holds one call (the rest wait behind it), so 300 turns hold 300 calls.
    for (let batch = 0; batch < 12; batch += 1) {
      const turns = await Promise.all(
        Array.from({ length: 25 }, (_, at) =>
          client.dispatch(session.id, [
            { id: `c${batch}-${at}`, name: 'rotate_secret', arguments: { service: `s${batch}-${at}` } },
          ]),
        ),
      );
      expect(turns.filter(({ results }) => results[0]?.status !== 'pending_approval')).toEqual([]);
    }
    const operator = await fixture.client(LISTER, 'operator');
    // A list filtered on a session that holds none reads all 300 held calls: 1 for the request
    // and 3 for the reads, then 1 for the report itself, all in one second (retried when a second
    // boundary falls between).
    let used = 0;
    for (let attempt = 0; attempt < 5 && used === 0; attempt += 1) {
      await nextSecond();
      const second = Math.floor(Date.now() / 1000);
      const list = await operator.listApprovals({ session: `${session.id}-other`, limit: 10 });
      expect(list.approvals).toHaveLength(0);
      const { quotas } = await operator.showTenant();
      if (Math.floor(Date.now() / 1000) === second) used = quotas['requestsPerSecond']?.used ?? 0;
    }
    expect(used).toBeGreaterThanOrEqual(5);
  });
});
