import { createHash } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daemonFixture, tenantId } from './harness';

// Requests over /mcp count against their tenant's requests per second like requests over NATS:
// before, an MCP client could search as fast as it liked while only its NATS requests were counted.
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const LIMITED = tenantId('mcp-rps-a');
const OTHER = tenantId('mcp-rps-b');
const OPENER = tenantId('mcp-rps-c');
const KEY_OPENER = 'tsk_mcp_request_quota_key_c_0123456789';
const KEY_LIMITED = 'tsk_mcp_request_quota_key_a_0123456789';
const KEY_OTHER = 'tsk_mcp_request_quota_key_b_0123456789';
const BULKY = tenantId('mcp-rps-d');
const KEY_BULKY = 'tsk_mcp_request_quota_key_d_0123456789';
const apiKey = (name: string, key: string) => [
  { name, sha256: sha256(key), grant: { toolsets: [] }, model: { contextLength: 128_000 } },
];

describe('requests per second over /mcp', () => {
  const fixture = daemonFixture({
    http: { port: 0 },
    tenants: {
      // A limit of 20 is within the least burst: the whole second may be spent at once.
      [LIMITED]: { apiKeys: apiKey('a', KEY_LIMITED), quotas: { requestsPerSecond: 20 } },
      [OTHER]: { apiKeys: apiKey('b', KEY_OTHER) },
      [OPENER]: { apiKeys: apiKey('c', KEY_OPENER), quotas: { requestsPerSecond: 50 } },
      // An operator's API key whose configured session is over limits.maxSessionBytes (256 KiB).
      [BULKY]: { apiKeys: [{ ...apiKey('d', KEY_BULKY)[0], config: { note: 'n'.repeat(300_000) } }] },
    },
  });
  let url: URL;
  const clients: Client[] = [];

  /** A raw MCP `initialize` with an API key, as a client without the SDK sends it. */
  const initializeWith = (key: string) =>
    fetch(url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      }),
    });

  async function mcpClient(bearer: string): Promise<Client> {
    const transport = new StreamableHTTPClientTransport(url, {
      requestInit: { headers: { Authorization: `Bearer ${bearer}` } },
    });
    const client = new Client({ name: 'mcp-request-quota-test', version: '1.0.0' });
    await client.connect(transport);
    clients.push(client);
    return client;
  }

  beforeAll(async () => {
    const daemon = await fixture.start();
    url = new URL(`${daemon.httpAddress}/mcp`);
  }, 30_000);
  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await fixture.stop();
  });

  it("refuses an MCP client's requests past its tenant's second with 429 QUOTA_EXCEEDED, and serves another tenant", async () => {
    const limited = await mcpClient(KEY_LIMITED);
    const other = await mcpClient(KEY_OTHER);
    const search = () => limited.callTool({ name: 'tool_search', arguments: { query: 'weather' } });
    let outcomes: PromiseSettledResult<unknown>[] = [];
    let oneWindow = false;
    // All thirty must be admitted in one second's window: start just after a second turns, and
    // try again when the last answer came in a later second (a loaded machine whose timer fired
    // late, or that was slow to answer; refusals are held about 200 ms before they are sent).
    for (let attempt = 0; attempt < 3 && !oneWindow; attempt += 1) {
      // The initialize (an API key's counts 20: the whole second) and any earlier attempt booked
      // up to a second of the tenant's pace: let it pass, so that only the window decides.
      await new Promise((done) => setTimeout(done, 1_000));
      await new Promise((done) => setTimeout(done, 1_010 - (Date.now() % 1_000)));
      const second = Math.floor(Date.now() / 1_000);
      outcomes = await Promise.allSettled(
        Array.from({ length: 30 }, (_, at) => (at % 6 === 5 ? limited.listTools() : search())),
      );
      oneWindow = Math.floor(Date.now() / 1_000) === second;
    }
    expect(oneWindow).toBe(true);
    const refused = outcomes.filter((outcome) => outcome.status === 'rejected');
    // 20 served, 10 refused (without the quota all 30 are served).
    expect(refused).toHaveLength(10);
    for (const outcome of refused) {
      const reason = (outcome as PromiseRejectedResult).reason as { code?: unknown };
      const message = String(reason);
      expect(reason.code).toBe(429);
      expect(message).toContain('QUOTA_EXCEEDED');
      expect(message).toContain("quota 'requestsPerSecond'");
    }
    // The other tenant's client is served meanwhile.
    await expect(other.callTool({ name: 'tool_search', arguments: { query: 'weather' } })).resolves.toHaveProperty(
      'content',
    );
    // The next second the limited tenant is served again.
    await new Promise((done) => setTimeout(done, 1_010 - (Date.now() % 1_000)));
    await expect(limited.listTools()).resolves.toHaveProperty('tools');
  });

  it('answers an API key whose configured session is too large 413 PAYLOAD_TOO_LARGE, naming the limit, not 500', async () => {
    const answer = await initializeWith(KEY_BULKY);
    expect(answer.status).toBe(413);
    const body = (await answer.json()) as { error: { message: string; data: { code: string } } };
    expect(body.error.data.code).toBe('PAYLOAD_TOO_LARGE');
    expect(body.error.message).toContain('limits.maxSessionBytes');
  });

  it("counts an API key's initialize as a session open (20): the third of a second at a limit of 50 is refused", async () => {
    const initialize = () => initializeWith(KEY_OPENER);
    await new Promise((done) => setTimeout(done, 1_010 - (Date.now() % 1_000)));
    const answers = await Promise.all(Array.from({ length: 4 }, () => initialize()));
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([200, 200, 429, 429]);
    const refused = answers.find((answer) => answer.status === 429);
    expect(await refused?.json()).toMatchObject({
      error: { code: -32003, data: { code: 'QUOTA_EXCEEDED', quota: 'requestsPerSecond', limit: 50 } },
    });
    for (const answer of answers) if (answer.status === 200) await answer.body?.cancel();
  });
});
