import { createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '@toolsearch/proto';
import type { Daemon } from '../src/daemon';
import { countingServer, type CountingServer } from './counting-http-server';
import { daemonFixture, freePort, tenantId } from './harness';

// Ports and tenants are fixed before the daemon's config is written.
const PORT = await freePort();
const DENIED_PORT = await freePort();
const CLOSED_PORT = await freePort();
const RESET_PORT = await freePort();
/** The deployment's default: no allowance at all. */
const PLAIN = tenantId('plain');
/** May reach 127.0.0.1 on any port (an address entry). */
const LOOPBACK = tenantId('loopback');
/** May reach one URL prefix only: the redirect's origin. */
const PREFIX = tenantId('prefix');
/** The operator's: its config-declared server is trusted. */
const OPERATOR = tenantId('operator');

const attachHttp = (url: string, name = 'remote') => ({
  name,
  transport: { type: 'http', url, headers: { Authorization: 'Bearer sk-tenant-secret' } },
});

describe('mcp.attach over HTTP: the outbound policy', () => {
  const fixture = daemonFixture({
    tenants: {
      [LOOPBACK]: { mcpOutbound: { allow: ['127.0.0.1'] } },
      [PREFIX]: { mcpOutbound: { allow: [`http://127.0.0.1:${PORT}/redirect`] } },
    },
  });
  let daemon: Daemon;
  let server: CountingServer;
  let denied: CountingServer;
  let reset: TcpServer;

  beforeAll(async () => {
    denied = await countingServer(DENIED_PORT);
    server = await countingServer(PORT, { redirectTo: `${denied.origin}/mcp` });
    // A port that accepts and drops every connection without a word.
    reset = createTcpServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => reset.listen(RESET_PORT, '127.0.0.1', resolve));
    daemon = await fixture.start();
  });
  afterAll(async () => {
    await fixture.stop();
    await server.close();
    await denied.close();
    await new Promise((resolve) => reset.close(resolve));
  });

  it('refuses loopback, private, link-local and unspecified targets with FORBIDDEN before connecting', async () => {
    const client = await fixture.client(PLAIN);
    const targets = [
      `http://127.0.0.1:${PORT}/mcp`,
      `http://localhost:${PORT}/mcp`,
      `http://[::1]:${PORT}/mcp`,
      `http://[::ffff:127.0.0.1]:${PORT}/mcp`,
      `http://2130706433:${PORT}/mcp`,
      `http://0.0.0.0:${PORT}/mcp`,
      // Never sent: the address is checked before any connection (and no packet leaves loopback).
      'http://169.254.169.254/latest/meta-data/',
      `http://10.20.30.40:${PORT}/mcp`,
      `http://100.64.0.1:${PORT}/mcp`,
      `http://[fd00::1]:${PORT}/mcp`,
      'http://does-not-exist.invalid/mcp',
    ];
    const messages = new Set<string>();
    for (const url of targets) {
      const refused = await client.call(ENDPOINTS.mcpAttach, attachHttp(url)).catch((error: unknown) => error);
      expect(refused, url).toMatchObject({ code: 'FORBIDDEN' });
      messages.add((refused as Error).message);
    }
    // One text for all: it names the rule and how the operator allows it, never what was there.
    expect([...messages]).toHaveLength(1);
    expect([...messages][0]).toMatch(/mcp\.outbound\.allow.*allowPrivate/);
    expect([...messages][0]).not.toContain('sk-tenant-secret');
    expect(server.connections()).toBe(0);
  });

  it('refuses schemes other than http and https', async () => {
    const client = await fixture.client(PLAIN);
    for (const url of ['file:///etc/passwd', `ftp://127.0.0.1:${PORT}/`, `ws://127.0.0.1:${PORT}/mcp`]) {
      await expect(client.call(ENDPOINTS.mcpAttach, attachHttp(url)), url).rejects.toMatchObject({
        code: 'FORBIDDEN',
      });
    }
    expect(server.connections()).toBe(0);
  });

  it("connects where the operator allowed it (tenants.<id>.mcpOutbound), and only for that tenant's requests", async () => {
    const allowed = await fixture.client(LOOPBACK);
    const attached = await allowed.call(ENDPOINTS.mcpAttach, attachHttp(`${server.origin}/mcp`, 'counted'));
    expect(attached).toMatchObject({ toolset: 'mcp-counted', tools: 1 });
    expect(server.connections()).toBeGreaterThan(0);
    const before = server.connections();
    const plain = await fixture.client(PLAIN);
    await expect(plain.call(ENDPOINTS.mcpAttach, attachHttp(`${server.origin}/mcp`, 'counted'))).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    expect(server.connections()).toBe(before);
    await allowed.call(ENDPOINTS.mcpDetach, { name: 'counted' });
  });

  it('refuses a redirect from an allowed URL to a denied one, and never connects to where it led', async () => {
    const client = await fixture.client(PREFIX);
    const before = server.connections();
    const refused = await client
      .call(ENDPOINTS.mcpAttach, attachHttp(`${server.origin}/redirect`))
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'MCP_UNREACHABLE' });
    expect(server.connections()).toBeGreaterThan(before);
    expect(denied.connections()).toBe(0);
    // The URL it led to is refused when asked for directly.
    await expect(client.call(ENDPOINTS.mcpAttach, attachHttp(`${denied.origin}/mcp`))).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    expect(denied.connections()).toBe(0);
  });

  it('gives one error text for a closed port, a dropped connection, and ports that answer but not MCP', async () => {
    const client = await fixture.client(LOOPBACK);
    const urls = [
      `http://127.0.0.1:${CLOSED_PORT}/mcp`,
      `http://127.0.0.1:${RESET_PORT}/mcp`,
      `${server.origin}/page`,
      `${server.origin}/missing`,
      `${server.origin}/redirect`,
    ];
    const replies: unknown[] = [];
    for (const url of urls)
      replies.push(await client.call(ENDPOINTS.mcpAttach, attachHttp(url)).catch((error: unknown) => error));
    for (const reply of replies) expect(reply).toMatchObject({ code: 'MCP_UNREACHABLE' });
    expect(new Set(replies.map((reply) => (reply as Error).message)).size).toBe(1);
    expect((replies[0] as Error).message).not.toContain('sk-tenant-secret');
  });

  it("trusts the operator's own servers (tenants.<id>.mcp, attached by the daemon) without an allowance", async () => {
    const before = server.connections();
    const attached = await daemon.attachMcp(OPERATOR, {
      name: 'ops',
      transport: { type: 'http', url: `${server.origin}/mcp` },
      supports_parallel_tool_calls: false,
    });
    expect(attached).toEqual({ toolset: 'mcp-ops', tools: 1 });
    expect(server.connections()).toBeGreaterThan(before);
  });
});
