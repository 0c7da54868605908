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
const DECIDER = tenantId('decider');
const fixture = daemonFixture({
  tenants: {
    [SLOW]: { quotas: { requestsPerSecond: 10 } },
    [FAST]: {},
    [LISTER]: { quotas: { requestsPerSecond: 400, heldApprovals: 5_000 } },
    [DECIDER]: { quotas: { requestsPerSecond: 50 } },
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

  it("hears an approver past the tenant's full second, on NATS and in the console, and still bounds a flood of decisions", async () => {
    // One held call, so that the approver's page has a decision form (and its CSRF token).
    await nextSecond();
    const client = await fixture.client(DECIDER);
    await client.putToolset({
      id: 'db',
      kind: 'plugin',
      label: 'db',
      tools: [{ name: 'drop_table', description: 'Drop a table.', inputSchema: obj, risk: 'high' }],
    });
    const { session } = await client.openSession({ grant: { toolsets: ['db'] }, model: { contextLength: 128_000 } });
    const { results } = await client.dispatch(session.id, [{ id: 'c1', name: 'drop_table', arguments: {} }]);
    expect(results[0]?.status).toBe('pending_approval');
    const approver = await fixture.client(DECIDER, 'alice');
    const console = new ConsoleAgent(base);
    expect((await console.signIn(DECIDER, TEST_KEYS.alice)).response.status).toBe(303);
    const csrf = ConsoleAgent.csrfOf((await console.request('/approvals')).text);
    expect(csrf).not.toBe('');
    const decision = { decision: 'deny' as const, tool: 'drop_table', digest: 'sha256:00' };
    for (let attempt = 0; attempt < 5; attempt += 1) {
      await nextSecond();
      const second = Math.floor(Date.now() / 1000);
      // The agents fill the tenant's second...
      const pages = await Promise.all(Array.from({ length: 90 }, () => console.request('/approvals')));
      expect(pages.some(({ response }) => response.status === 429)).toBe(true);
      // ...and the approver is still heard: the decision reaches the held calls (none has this id).
      const nats = await approver.decide('no-such-call', decision).catch((error: { code?: string }) => error);
      const form = await console.request('/approvals/no-such-call/decide', {
        form: { csrf, decision: 'deny', tool: 'drop_table', digest: 'sha256:00' },
      });
      // A flood of decisions is refused past twice the tenant's limit (100 here).
      const flood = await Promise.all(
        Array.from({ length: 150 }, () =>
          approver.decide('no-such-call', decision).catch((error: { code?: string }) => error.code),
        ),
      );
      if (Math.floor(Date.now() / 1000) !== second) continue; // a second boundary fell between: again
      expect((nats as { code?: string }).code, String((nats as Error).message)).toBe('APPROVAL_NOT_FOUND');
      // Past the quota, the form reached the held calls: no such call (404), not 429.
      expect(form.response.status).toBe(404);
      expect(flood.filter((code) => code === 'QUOTA_EXCEEDED').length).toBeGreaterThan(0);
      expect(flood.filter((code) => code === 'APPROVAL_NOT_FOUND').length).toBeLessThanOrEqual(100);
      return;
    }
    throw new Error('no attempt fitted in one second');
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
