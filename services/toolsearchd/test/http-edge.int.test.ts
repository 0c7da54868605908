import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Daemon } from '../src/daemon';
import { QUOTA_REFUSAL_HOLD_MS } from '../src/http/mcp-front-door';
import { daemonFixture, eventually, tenantId } from './harness';
import { exchange, raw } from './raw-http';

const FIXTURE = fileURLToPath(new URL('./fixtures/file-driven-mcp-server.mjs', import.meta.url));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

const TENANT_A = tenantId('edge-a');
const TENANT_B = tenantId('edge-b');
const TENANT_C = tenantId('edge-c');
const TENANT_M = tenantId('edge-m');
const KEY_A = 'tsk_http_edge_key_of_tenant_a_0123456789';
const KEY_B = 'tsk_http_edge_key_of_tenant_b_0123456789';
const KEY_C = 'tsk_http_edge_key_of_tenant_c_0123456789';
const MAX_BODY = 64 * 1024;
const ABANDONED_MS = 1500;
const PER_ADDRESS = 48;

const apiKey = (name: string, key: string) => ({
  apiKeys: [{ name, sha256: sha256(key), grant: { toolsets: [] }, model: { contextLength: 128_000 } }],
});

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

interface RpcRefusal {
  error: { code: number; message: string; data: { code: string; quota?: string; limit?: number } };
}

describe('the HTTP edge', () => {
  const fixture = daemonFixture({
    http: {
      port: 0,
      allowedOrigins: ['https://console.example'],
      headersTimeoutMs: 1000,
      requestTimeoutMs: 2000,
      bodyIdleTimeoutMs: 1000,
      mcpAbandonedMs: ABANDONED_MS,
      maxMcpSessionsPerCredential: 3,
      maxMcpSessionsPerTenant: 5,
      maxConnectionsPerAddress: PER_ADDRESS,
    },
    limits: { maxPayloadBytes: MAX_BODY },
    tenants: {
      [TENANT_A]: apiKey('a', KEY_A),
      [TENANT_B]: apiKey('b', KEY_B),
      [TENANT_C]: apiKey('c', KEY_C),
    },
  });
  let daemon: Daemon;
  let url: string;
  let port: number;
  const opened: { mcp: Client; transport: StreamableHTTPClientTransport }[] = [];

  async function mcpClient(bearer: string) {
    const transport = new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { Authorization: `Bearer ${bearer}` } },
    });
    const mcp = new Client({ name: 'http-edge-test', version: '1.0.0' });
    await mcp.connect(transport);
    const client = { mcp, transport };
    opened.push(client);
    return client;
  }

  function post(bearer: string, body: unknown, headers: Record<string, string> = {}) {
    return fetch(url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${bearer}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...headers,
      },
      body: JSON.stringify(body),
    });
  }

  beforeAll(async () => {
    daemon = await fixture.start();
    url = `${daemon.httpAddress}/mcp`;
    port = Number(new URL(url).port);
  }, 30_000);

  afterAll(async () => {
    for (const { mcp } of opened) await mcp.close().catch(() => undefined);
    await fixture.stop();
  });

  it('refuses a browser Origin that is not allowed with 403 before anything else', async () => {
    const before = (await (await fixture.client(TENANT_B)).listSessions()).total;
    for (const origin of ['https://evil.example', 'null', `http://evil.example:${port}`]) {
      const health = await fetch(`${daemon.httpAddress}/healthz`, { headers: { origin } });
      expect(health.status).toBe(403);
      expect(((await health.json()) as RpcRefusal).error.data.code).toBe('ORIGIN_NOT_ALLOWED');
      // A valid key does not help: nothing is opened for it.
      const mcp = await post(KEY_B, INITIALIZE, { origin });
      expect(mcp.status).toBe(403);
      await mcp.text();
    }
    expect((await (await fixture.client(TENANT_B)).listSessions()).total).toBe(before);

    // Listed origins, the listener's own loopback origin and programs (no Origin) get through.
    for (const origin of ['https://console.example', `http://127.0.0.1:${port}`, `http://localhost:${port}`]) {
      const allowed = await fetch(`${daemon.httpAddress}/healthz`, { headers: { origin } });
      expect(allowed.status).toBe(200);
      expect(allowed.headers.get('access-control-allow-origin')).toBe(origin);
    }
    expect((await fetch(`${daemon.httpAddress}/healthz`)).status).toBe(200);
    const preflight = await fetch(url, {
      method: 'OPTIONS',
      headers: { origin: 'https://console.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toContain('mcp-session-id');
  });

  it('cuts 5 connections sending a byte a second at the timeouts, and serves others meanwhile', async () => {
    const started = Date.now();
    const headerDrip = 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ';
    const bodyDrip =
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${KEY_A}\r\n` +
      'Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 500\r\n\r\n{';
    const slow = [headerDrip, headerDrip, headerDrip, bodyDrip, bodyDrip].map((opening) => {
      const socket: Socket = connect(port, '127.0.0.1', () => socket.write(opening));
      const drip = setInterval(() => socket.write(' '), 1000);
      let received = '';
      socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
      socket.on('error', () => undefined);
      return new Promise<{ ms: number; received: string }>((resolve) => {
        const giveUp = setTimeout(() => socket.destroy(), 8000);
        socket.on('close', () => {
          clearInterval(drip);
          clearTimeout(giveUp);
          resolve({ ms: Date.now() - started, received });
        });
      });
    });
    await sleep(300);
    const asked = Date.now();
    expect((await fetch(`${daemon.httpAddress}/healthz`)).status).toBe(200);
    expect(Date.now() - asked).toBeLessThan(1000);
    for (const { ms, received } of await Promise.all(slow)) {
      // requestTimeoutMs (2 s) plus Node's checking interval, far from Node's 60 s / 300 s defaults.
      expect(ms).toBeLessThan(4000);
      expect(received).toMatch(/^HTTP\/1\.1 408 /);
    }
    // The refused bodies gave their session slots back: the key still opens sessions.
    const { transport } = await mcpClient(KEY_A);
    await transport.terminateSession();
  }, 15_000);

  it('answers 401 from the headers, without reading the body of an unknown credential', async () => {
    // A body announced but never sent: only an answer that does not wait for it arrives.
    const silent = await exchange(
      port,
      {
        method: 'POST',
        path: '/mcp',
        headers: { authorization: 'Bearer tsk_not_a_key_at_all', 'content-length': String(100 * 1024 ** 2) },
      },
      3000,
    );
    expect(silent.error).toBeUndefined();
    expect(silent.status).toBe(401);
    expect(silent.ms).toBeLessThan(1000);
    expect(silent.headers?.connection).toBe('close');
    expect((JSON.parse(silent.body ?? '{}') as RpcRefusal).error.data.code).toBe('UNAUTHENTICATED');
    // A client that waits for "100 Continue" (curl does, for bodies over 1 KiB) is not invited to send.
    const waiting = await raw(
      port,
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer tsk_not_a_key_at_all\r\n` +
        'Content-Type: application/json\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\n',
    );
    expect(waiting).toMatch(/^HTTP\/1\.1 401 /);
    // An accepted one is, and gets its answer once the body is in.
    const accepted = await raw(
      port,
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${KEY_A}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\n',
      '{}',
    );
    expect(accepted).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 400 /);
    // A huge body on its way: answered 401 (not 413 after reading a limit's worth of it).
    const huge = await exchange(port, {
      method: 'POST',
      path: '/mcp',
      headers: { authorization: 'Bearer tsk_not_a_key_at_all', 'content-type': 'application/json' },
      body: Buffer.alloc(16 * 1024 ** 2, 0x20),
    });
    expect(huge.status).toBe(401);
    expect(huge.ms).toBeLessThan(2000);
  });

  it('closes the connection after a 413: the next request goes over a new connection and succeeds', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      for (const announced of [true, false]) {
        const body = Buffer.alloc(1024 * 1024, 0x20);
        const big = await exchange(port, {
          method: 'POST',
          path: '/mcp',
          agent,
          headers: {
            authorization: `Bearer ${KEY_A}`,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            // Announced: refused before reading; chunked: refused once over the limit.
            ...(announced ? { 'content-length': String(body.length) } : {}),
          },
          body,
        });
        expect(big.error).toBeUndefined();
        expect(big.status).toBe(413);
        expect(big.headers?.connection).toBe('close');
        expect(JSON.parse(big.body ?? '{}')).toMatchObject({
          error: { data: { code: 'PAYLOAD_TOO_LARGE', limit: MAX_BODY } },
        });
        const next = await exchange(port, { method: 'GET', path: '/healthz', agent });
        expect(next.error).toBeUndefined();
        expect(next.status).toBe(200);
        expect(next.port).not.toBe(big.port);
      }
    } finally {
      agent.destroy();
    }
  });

  it('refuses a body nested deeper than limits.maxJsonDepth with 400 before parsing it, and keeps serving', async () => {
    const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${KEY_A}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"tool_search","arguments":{"queries":${deep}}}}`,
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { message: string; data: { code: string } } };
    expect(body.error.data.code).toBe('BAD_REQUEST');
    expect(body.error.message).toContain('limits.maxJsonDepth');
    expect((await fetch(`${daemon.httpAddress}/healthz`)).status).toBe(200);
  });

  it("refuses a credential at its MCP session cap with QUOTA_EXCEEDED while another tenant's key connects", async () => {
    const held = [await mcpClient(KEY_A), await mcpClient(KEY_A), await mcpClient(KEY_A)];
    const refusedAt = performance.now();
    const [refused, meanwhile] = await Promise.all([
      post(KEY_A, INITIALIZE).then((response) => ({ response, at: performance.now() })),
      // Other requests are answered while the refusal is held.
      fetch(`${daemon.httpAddress}/healthz`).then(() => performance.now()),
    ]);
    // The refusal is held a while: a client that initializes again at once is slowed down.
    expect(refused.at - refusedAt).toBeGreaterThanOrEqual(QUOTA_REFUSAL_HOLD_MS - 5);
    expect(refused.at - refusedAt).toBeLessThan(2_000);
    expect(meanwhile).toBeLessThan(refused.at);
    expect(refused.response.status).toBe(429);
    const refusal = (await refused.response.json()) as RpcRefusal;
    expect(refusal.error.data).toEqual({
      code: 'QUOTA_EXCEEDED',
      quota: 'http.maxMcpSessionsPerCredential',
      limit: 3,
    });
    expect(refusal.error.message).toContain('http.maxMcpSessionsPerCredential');

    const other = await mcpClient(KEY_B);
    // (Its grant is empty: an empty surface, but a working session.)
    await expect(other.mcp.listTools()).resolves.toEqual({ tools: [] });

    // Session tokens are credentials of their own, but the tenant's cap holds them all.
    const gateway = await fixture.client(TENANT_A);
    const open = () => gateway.openSession({ grant: { toolsets: [] }, model: { contextLength: 128_000 } });
    const [first, second, third] = [await open(), await open(), await open()];
    held.push(await mcpClient(first.token), await mcpClient(second.token));
    const overTenant = await post(third.token, INITIALIZE);
    expect(overTenant.status).toBe(429);
    expect(((await overTenant.json()) as RpcRefusal).error.data).toMatchObject({
      code: 'QUOTA_EXCEEDED',
      quota: 'http.maxMcpSessionsPerTenant',
      limit: 5,
    });

    // An ended session gives its slot back.
    await held[0]?.transport.terminateSession();
    const again = await mcpClient(KEY_A);
    await expect(again.mcp.listTools()).resolves.toEqual({ tools: [] });
    for (const client of [...held.slice(1), other, again]) await client.transport.terminateSession();
  });

  it('ends an MCP session whose client is gone after mcpAbandonedMs, and keeps one whose client is connected', async () => {
    const keyed = await fixture.client(TENANT_C);
    const live = await mcpClient(KEY_C);
    // Like the MCP Inspector's command line: initialize, say initialized, leave without DELETE.
    const raw = await post(KEY_C, INITIALIZE);
    const sessionId = raw.headers.get('mcp-session-id') ?? '';
    await raw.text();
    const headers = { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' };
    expect((await post(KEY_C, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers)).status).toBe(202);
    expect((await keyed.listSessions()).total).toBe(2);
    const left = Date.now();
    await eventually(async () => expect((await keyed.listSessions()).total).toBe(1), 5000);
    expect(Date.now() - left).toBeGreaterThanOrEqual(ABANDONED_MS - 300);
    expect((await post(KEY_C, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, headers)).status).toBe(404);

    // The connected client (its event stream open) outlives the abandon timeout many times over.
    await sleep(2 * ABANDONED_MS);
    expect((await keyed.listSessions()).total).toBe(1);
    await expect(live.mcp.listTools()).resolves.toEqual({ tools: [] });
    // Its process goes away without DELETE: its session, and the one its key opened, end soon after.
    await live.mcp.close();
    await eventually(async () => expect((await keyed.listSessions()).total).toBe(0), 6000);
  }, 20_000);

  it('refuses connections over maxConnectionsPerAddress with QUOTA_EXCEEDED on accept', async () => {
    const sockets: Socket[] = [];
    const answers: Promise<string>[] = [];
    for (let i = 0; i <= PER_ADDRESS; i += 1) {
      const socket = connect(port, '127.0.0.1');
      socket.on('error', () => undefined);
      sockets.push(socket);
      answers.push(
        new Promise((resolve) => {
          let received = '';
          socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
          socket.on('close', () => resolve(received));
          setTimeout(() => resolve(received), 500);
        }),
      );
    }
    const received = await Promise.all(answers);
    const refused = received.filter((text) => text.startsWith('HTTP/1.1 429'));
    expect(refused.length).toBeGreaterThanOrEqual(1);
    expect(refused[0]).toContain('"quota":"http.maxConnectionsPerAddress"');
    expect(refused[0]).toContain('QUOTA_EXCEEDED');
    for (const socket of sockets) socket.destroy();
    await eventually(async () => expect((await fetch(`${daemon.httpAddress}/healthz`)).status).toBe(200), 3000);
  });

  it('serves /metrics to a client without credentials with no tenant id or server name in it', async () => {
    const tools = join(mkdtempSync(join(tmpdir(), 'toolsearch-edge-')), 'tools.json');
    writeFileSync(
      tools,
      JSON.stringify([{ name: 'lookup', description: 'Look up.', inputSchema: { type: 'object' } }]),
    );
    await daemon.attachMcp(TENANT_M, {
      name: 'billing-of-edge-m',
      transport: { type: 'stdio', command: process.execPath, args: [FIXTURE, tools] },
      supports_parallel_tool_calls: true,
    });
    const { transport } = await mcpClient(KEY_B);
    const response = await fetch(`${daemon.httpAddress}/metrics`);
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toContain('toolsearch_mcp_requests_total');
    expect(Number(/^toolsearch_mcp_servers\{state="connected"\} (\d+)$/m.exec(text)?.[1])).toBeGreaterThanOrEqual(1);
    for (const identity of [TENANT_A, TENANT_B, TENANT_C, TENANT_M, 'billing-of-edge-m'])
      expect(text, `/metrics must not name ${identity}`).not.toContain(identity);
    await transport.terminateSession();
  });
});
