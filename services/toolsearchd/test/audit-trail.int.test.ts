import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daemonFixture, serveExec, tenantId } from './harness';

const obj = { type: 'object', properties: {} };
const TENANT = tenantId('audit');

describe('the audit trail', () => {
  const fixture = daemonFixture({ tenants: { [TENANT]: { policy: { audit: { arguments: true } } } } });

  beforeAll(() => fixture.start());
  afterAll(() => fixture.stop());

  it('lets an operator follow search, describe, call and result, with secrets redacted', async () => {
    const client = await fixture.client(TENANT);
    const operator = await fixture.client(TENANT, 'operator');
    const nc = await fixture.connection();
    await serveExec(nc, TENANT, 'crm', (request) => ({ found: request.arguments['name'], session_token: 'tok-1' }));
    await client.putToolset({
      id: 'crm',
      kind: 'plugin',
      label: 'crm',
      tools: [{ name: 'find_customer', description: 'Find a customer by name.', inputSchema: obj }],
    });
    const { session } = await client.openSession({
      grant: { toolsets: ['crm'] },
      model: { contextLength: 128_000 },
      config: { enabled: 'on' },
    });
    await client.dispatch(session.id, [{ id: 's1', name: 'tool_search', arguments: { queries: ['customer'] } }]);
    await client.dispatch(session.id, [
      { id: 'c1', name: 'find_customer', arguments: { name: 'Ada', api_key: 'sk-live-123' } },
    ]);
    const { records } = await operator.recentActivity({ session: session.id, limit: 10 });
    const call = records.find((record) => record.call_id === 'c1');
    expect(call).toMatchObject({
      tool: 'find_customer',
      outcome: 'ok',
      arguments: '{"name":"Ada","api_key":"[redacted]"}',
      result: '{"found":"Ada","session_token":"[redacted]"}',
    });
    const search = records.find((record) => record.call_id === 's1');
    expect(search).toMatchObject({ tool: 'tool_search', arguments: '{"queries":["customer"]}' });
    expect(search?.result).toContain('find_customer');
    expect(JSON.stringify(records)).not.toContain('sk-live-123');
  });
});
