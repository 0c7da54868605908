import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NatsConnection } from 'nats';
import type { ToolsearchClient } from '@toolsearch/client';
import { clientFor, daemonFixture, tenantId } from './harness';

// A model turn (`sessions.<s>.dispatch`) counts the work of its calls against the tenant's
// requests per second: it used to count 1 whatever it held (64 calls of 7 searches each).
const TENANT = tenantId('turns');
const obj = { type: 'object', properties: {} };
const search = (id: string, queries: string[]) => ({ id, name: 'tool_search', arguments: { queries } });
const seven = ['weather today', 'forecast', 'rain', 'wind speed', 'humidity', 'temperature', 'storm warnings'];

describe('the weight of a model turn', () => {
  const fixture = daemonFixture({ tenants: { [TENANT]: { quotas: { requestsPerSecond: 30 } } } });
  let nc: NatsConnection;
  let client: ToolsearchClient;
  let session = '';

  beforeAll(async () => {
    await fixture.start();
    ({ nc, client } = await clientFor(TENANT));
    await client.putToolset({
      id: 'ops',
      kind: 'plugin',
      label: 'ops',
      tools: [{ name: 'weather_forecast', description: 'Weather forecast for a city.', inputSchema: obj }],
    });
    session = (await client.openSession({ grant: { toolsets: ['ops'] }, model: { contextLength: 128_000 } })).session
      .id;
  }, 30_000);
  afterAll(async () => {
    await nc.close();
    await fixture.stop();
  });

  it('counts its queries: after a turn of 21 searches, a turn of 14 does not fit the same second of 30', async () => {
    let codes: string[] = [];
    // Both turns must reach the daemon within one second: retried when a busy machine let the
    // first one run into the next second.
    for (let attempt = 0; attempt < 5; attempt += 1) {
      await new Promise((done) => setTimeout(done, 1_010 - (Date.now() % 1_000)));
      const second = Math.floor(Date.now() / 1_000);
      const turns = [
        [search('a', seven), search('b', seven), search('c', seven)],
        [search('d', seven), search('e', seven)],
      ];
      codes = [];
      let sameSecond = true;
      for (const calls of turns) {
        sameSecond &&= Math.floor(Date.now() / 1_000) === second;
        codes.push(
          await client.dispatch(session, calls).then(
            (reply) => (reply.results.every((result) => result.ok) ? 'ok' : 'failed'),
            (error: { code?: string }) => error.code ?? 'ERROR',
          ),
        );
      }
      if (sameSecond) break;
    }
    // 21 + 14 > 30: the second turn is refused (counted 1 each, as before, both ran).
    expect(codes).toEqual(['ok', 'QUOTA_EXCEEDED']);
  }, 30_000);
});
