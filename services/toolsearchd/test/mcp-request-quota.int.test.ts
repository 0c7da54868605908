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
const KEY_LIMITED = 'tsk_mcp_request_quota_key_a_0123456789';
const KEY_OTHER = 'tsk_mcp_request_quota_key_b_0123456789';
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
    },
  });
  let url: URL;
  const clients: Client[] = [];

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

  it("refuses an MCP client's calls past its tenant's second with QUOTA_EXCEEDED, and serves another tenant", async () => {
    const limited = await mcpClient(KEY_LIMITED);
    const other = await mcpClient(KEY_OTHER);
    // Start just after a second turns, so that all thirty calls fall in one window.
    await new Promise((done) => setTimeout(done, 1_010 - (Date.now() % 1_000)));
    const results = await Promise.all(
      Array.from({ length: 30 }, () => limited.callTool({ name: 'tool_search', arguments: { query: 'weather' } })),
    );
    const refused = results.filter((result) => result._meta?.['toolsearch/error_code'] === 'QUOTA_EXCEEDED');
    const served = results.filter((result) => result.isError !== true);
    expect(served).toHaveLength(20);
    expect(refused).toHaveLength(10);
    expect(JSON.stringify(refused[0]?.content)).toContain("quota 'requestsPerSecond'");
    // A listing in the same second is refused too, as a JSON-RPC error naming the quota...
    await expect(limited.listTools()).rejects.toThrow(/requestsPerSecond/);
    // ...while the other tenant's client is served.
    await expect(other.listTools()).resolves.toHaveProperty('tools');
    // The next second the limited tenant is served again.
    await new Promise((done) => setTimeout(done, 1_010 - (Date.now() % 1_000)));
    await expect(limited.listTools()).resolves.toHaveProperty('tools');
  });
});
