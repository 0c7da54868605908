import { createServer, request as forward, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { ToolsetSchema } from '@toolsearch/catalog';
import type { Daemon } from '../src/daemon';
import { daemonFixture, DOCS_TOOLSET, eventually, startDaemon, tenantId } from './harness';

/** One request as the proxy passed it on: which upstream, the HTTP method, the JSON-RPC method. */
interface Hop {
  readonly upstream: number;
  readonly http: string;
  readonly rpc: string | undefined;
  readonly status: number;
}

/**
 * A round-robin reverse proxy without any affinity: each request goes to the next upstream in
 * turn, whatever its `Mcp-Session-Id`, and its response (event streams included) is streamed back.
 */
async function roundRobin(upstreams: readonly string[]): Promise<{ url: string; hops: Hop[]; server: Server }> {
  const hops: Hop[] = [];
  let next = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const upstream = next;
      next = (next + 1) % upstreams.length;
      const body = Buffer.concat(chunks);
      let rpc: string | undefined;
      try {
        rpc = (JSON.parse(body.toString()) as { method?: string }).method;
      } catch {
        rpc = undefined;
      }
      const target = new URL(req.url ?? '/', upstreams[upstream]);
      const outbound = forward(target, { method: req.method, headers: req.headers }, (answer) => {
        hops.push({ upstream, http: req.method ?? '', rpc, status: answer.statusCode ?? 0 });
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        res.flushHeaders();
        answer.pipe(res);
      });
      outbound.on('error', () => res.destroy());
      res.on('close', () => outbound.destroy());
      outbound.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, hops, server };
}

describe('MCP sessions without sticky routing', () => {
  const fixture = daemonFixture();
  const tenant = tenantId('rr');
  let second: Daemon | undefined;
  let proxy: Server | undefined;
  afterAll(async () => {
    proxy?.closeAllConnections();
    proxy?.close();
    await second?.close();
    await fixture.stop();
  });

  it('serves one MCP SDK session through a round-robin proxy over two replicas, list_changed included', async () => {
    const first = await fixture.start();
    second = await startDaemon(fixture.config);
    const replicas = [first, second];
    expect(first.httpAddress).not.toBe(second.httpAddress);
    const rr = await roundRobin(replicas.map((daemon) => daemon.httpAddress ?? ''));
    proxy = rr.server;

    const client = await fixture.client(tenant);
    await client.putToolset(DOCS_TOOLSET);
    const { session, token } = await client.openSession({
      grant: { toolsets: ['docs', 'extra-a', 'extra-b'] },
      model: { contextLength: 128_000 },
    });
    const transport = new StreamableHTTPClientTransport(new URL(rr.url), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    });
    const mcp = new Client({ name: 'round-robin-test', version: '1.0.0' });
    let changes = 0;
    mcp.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changes += 1;
    });
    await mcp.connect(transport);
    try {
      // Four rounds of list and call, with one more list in the second: the alternation's parity
      // shifts, so each kind of request lands on both replicas.
      for (let i = 0; i < 4; i += 1) {
        if (i === 2) await mcp.listTools();
        const { tools } = await mcp.listTools();
        expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['tool_search', 'tool_call']));
        const found = (await mcp.callTool({
          name: 'tool_search',
          arguments: { queries: ['read a documentation page'] },
        })) as CallToolResult;
        expect(found.isError).toBeFalsy();
        expect(JSON.stringify(found.content)).toContain('read_page');
      }
      const initialize = rr.hops.find((hop) => hop.rpc === 'initialize');
      expect(initialize?.status).toBe(200);
      const served = (rpc: string) => new Set(rr.hops.filter((hop) => hop.rpc === rpc).map((hop) => hop.upstream));
      // Every kind of request reached both replicas, so each was served by one that did not initialize.
      expect(served('tools/list')).toEqual(new Set([0, 1]));
      expect(served('tools/call')).toEqual(new Set([0, 1]));
      expect(rr.hops.filter((hop) => hop.rpc !== undefined).every((hop) => hop.status < 300)).toBe(true);

      // The client's event stream is on one replica; each replica in turn handles a toolset change.
      await eventually(() => expect(rr.hops.some((hop) => hop.http === 'GET' && hop.status === 200)).toBe(true));
      for (const [index, daemon] of replicas.entries()) {
        const id = index === 0 ? 'extra-a' : 'extra-b';
        await daemon.registerToolsets(tenant, [
          ToolsetSchema.parse({
            id,
            kind: 'plugin',
            label: id,
            tools: [{ name: `lookup_${index}`, description: 'Search the documentation pages.' }],
          }),
        ]);
        await eventually(() => expect(changes).toBe(index + 1));
      }
      const after = (await mcp.callTool({
        name: 'tool_search',
        arguments: { queries: ['search the documentation pages'] },
      })) as CallToolResult;
      expect(JSON.stringify(after.content)).toContain('lookup_0');
      expect(JSON.stringify(after.content)).toContain('lookup_1');

      // Ended through one replica, the session is gone on both.
      const id = transport.sessionId ?? '';
      await transport.terminateSession();
      for (const daemon of replicas) {
        const stale = await fetch(`${daemon.httpAddress}/mcp`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${token}`,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-session-id': id,
            'mcp-protocol-version': '2025-06-18',
          },
          body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list', params: {} }),
        });
        expect(stale.status).toBe(404);
      }
      expect(session.id).toBeTruthy();
    } finally {
      await mcp.close();
    }
  }, 60_000);
});

describe('MCP session caps across replicas', () => {
  const fixture = daemonFixture({ http: { port: 0, maxMcpSessionsPerCredential: 2 } });
  let second: Daemon | undefined;
  afterAll(async () => {
    await second?.close();
    await fixture.stop();
  });

  it("counts a credential's sessions on every replica together, and frees a slot ended on another", async () => {
    const first = await fixture.start();
    second = await startDaemon(fixture.config);
    const client = await fixture.client(tenantId('caps'));
    const { token } = await client.openSession({ grant: { toolsets: [] }, model: { contextLength: 128_000 } });
    const request = (daemon: Daemon, method: string, headers: Record<string, string> = {}) =>
      fetch(`${daemon.httpAddress ?? ''}/mcp`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
        ...(method === 'POST'
          ? {
              body: JSON.stringify({
                jsonrpc: '2.0',
                id: 1,
                method: 'initialize',
                params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
              }),
            }
          : {}),
      });
    const initialize = async (daemon: Daemon) => {
      const response = await request(daemon, 'POST');
      await response.text();
      return { status: response.status, id: response.headers.get('mcp-session-id') ?? '' };
    };
    const one = await initialize(first);
    const two = await initialize(second);
    expect([one.status, two.status]).toEqual([200, 200]);
    expect(one.id).not.toBe(two.id);
    const over = await request(first, 'POST');
    expect(over.status).toBe(429);
    expect(((await over.json()) as { error: { data: { quota: string } } }).error.data.quota).toBe(
      'http.maxMcpSessionsPerCredential',
    );
    // Ended through the replica that did not open it, the session gives its slot back.
    expect((await request(second, 'DELETE', { 'mcp-session-id': one.id })).status).toBe(200);
    expect((await initialize(first)).status).toBe(200);
  }, 30_000);
});
