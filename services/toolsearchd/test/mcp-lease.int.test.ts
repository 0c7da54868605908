import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '@toolsearch/proto';
import type { Daemon } from '../src/daemon';
import { RedisKeys } from '../src/redis-keys';
import { countingServer, type CountingServer } from './counting-http-server';
import {
  cleanup,
  clientFor,
  daemonFixture,
  daemonProcess,
  eventually,
  exited,
  freePort,
  startDaemon,
  tenantId,
  testConfig,
} from './harness';

const FIXTURE = fileURLToPath(new URL('./fixtures/file-driven-mcp-server.mjs', import.meta.url));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How long the server's own connection may take on a busy test machine (a stdio process starting). */
const CONNECT_ALLOWANCE_MS = 4000;

describe('an attached MCP server owned through a lease', () => {
  const config = testConfig({
    mcp: { allowedCommands: [process.execPath] },
    // A call to a replica that is gone fails fast instead of waiting the default 30 s.
    dispatch: { timeoutMs: 2000 },
  });
  const { ttlMs, renewMs } = config.mcp.lease;
  const dir = mkdtempSync(join(tmpdir(), 'toolsearchd-lease-'));
  const configPath = join(dir, 'config.json');
  writeFileSync(configPath, JSON.stringify({ ...config, log: { level: 'info' } }));
  const tools = join(dir, 'tools.json');
  writeFileSync(
    tools,
    JSON.stringify([{ name: 'lookup', description: 'Look a record up.', inputSchema: { type: 'object' } }]),
  );
  const children: ChildProcess[] = [];
  let survivor: Daemon | undefined;

  afterAll(async () => {
    // The killed owner's server process outlives it; this file makes every copy exit.
    writeFileSync(tools, 'EXIT');
    for (const child of children) child.kill('SIGKILL');
    await Promise.all(children.map(exited));
    await survivor?.close();
    await cleanup(config);
  });

  it('after kill -9 of the owner, calls through the other replica work again within ttlMs + renewMs', async () => {
    expect({ ttlMs, renewMs }).toEqual({ ttlMs: 10_000, renewMs: 3000 });
    const owner = await daemonProcess(configPath);
    children.push(owner);
    const tenant = tenantId('lease');
    const { nc, client } = await clientFor(tenant);
    try {
      // Only the owner serves yet: it attaches, and holds the connection.
      await client.call(ENDPOINTS.mcpAttach, {
        name: 'records',
        transport: { type: 'stdio', command: process.execPath, args: [FIXTURE, tools] },
      });
      survivor = await startDaemon(config);
      const { session } = await client.openSession({
        grant: { toolsets: ['mcp-records'] },
        model: { contextLength: 128_000 },
      });
      const other = survivor;
      const call = async () => {
        const [result] = await other.dispatchService.dispatcher.dispatch(await other.turnContext(tenant, session.id), [
          { id: `c-${Date.now()}`, name: 'tool_call', arguments: { name: 'records__lookup', arguments: {} } },
        ]);
        return JSON.stringify(result).includes('called lookup');
      };
      // Through the relay to the owner.
      expect(await call()).toBe(true);
      expect(other.mcpServers()).toEqual([]);

      owner.kill('SIGKILL');
      await exited(owner);
      const killed = Date.now();
      let failed = 0;
      while (!(await call())) {
        failed += 1;
        expect(Date.now() - killed).toBeLessThan(ttlMs + renewMs + CONNECT_ALLOWANCE_MS);
        await sleep(200);
      }
      const recovered = Date.now() - killed;
      // In between, calls failed (the owner's lease had not expired); then the survivor reconnected.
      expect(failed).toBeGreaterThan(0);
      expect(recovered).toBeLessThan(ttlMs + renewMs + CONNECT_ALLOWANCE_MS);
      expect(other.mcpServers()).toEqual([{ tenant, server: 'records', connected: true }]);
      console.info(`mcp lease takeover: calls worked again ${recovered} ms after kill -9 of the owner`);

      // The toolset is available again, with its tools.
      const { toolsets } = await client.call(ENDPOINTS.toolsetsList, {});
      const records = toolsets.find((toolset) => toolset.id === 'mcp-records');
      expect(records).toMatchObject({ id: 'mcp-records' });
      expect(records?.unavailable).toBeUndefined();
      expect(records?.tools).toBe(1);

      // Detach works from the replica that now owns it, and the lease goes with it.
      await client.call(ENDPOINTS.mcpDetach, { name: 'records' });
      await sleep(renewMs + 500);
      expect(other.mcpServers()).toEqual([]);
    } finally {
      await nc.close();
    }
  }, 60_000);
});

describe('a takeover of a stored attachment', () => {
  const fixture = daemonFixture({ mcp: { lease: { ttlMs: 1000, renewMs: 200 } } });
  let server: CountingServer | undefined;
  afterAll(async () => {
    await server?.close();
    await fixture.stop();
  });

  it('passes the outbound policy of mcp.attach: a loopback server it refuses is never contacted', async () => {
    const daemon = await fixture.start();
    server = await countingServer(await freePort());
    const tenant = tenantId('sneaky');
    const client = await fixture.client(tenant);
    // An attachment whose owner is gone (no lease), pointing where the default policy refuses.
    await client.putToolset({
      id: 'mcp-sneaky',
      kind: 'mcp',
      label: 'sneaky',
      tools: [{ name: 'ping', description: 'Ping.', inputSchema: { type: 'object' } }],
    });
    const redis = new Redis(fixture.config.redis.url ?? '');
    try {
      const keys = new RedisKeys(fixture.config.namespace.redisPrefix);
      await redis.set(
        keys.tenant(tenant, 'mcp', 'attach', 'sneaky'),
        JSON.stringify({ name: 'sneaky', transport: { type: 'http', url: `${server.origin}/mcp` } }),
      );
      await redis.sadd(keys.tenant(tenant, 'mcp', 'attached'), 'sneaky');
    } finally {
      redis.disconnect();
    }
    const sneaky = async () =>
      (await client.call(ENDPOINTS.toolsetsList, {})).toolsets.find((toolset) => toolset.id === 'mcp-sneaky');
    await eventually(async () => expect((await sneaky())?.unavailable).toBeDefined(), 5000);
    await sleep(1000);
    expect(server.connections()).toBe(0);
    expect(daemon.mcpServers()).toEqual([]);
  }, 20_000);
});

describe('a replica that stops cleanly', () => {
  // A long lease with frequent looks: a handover faster than ttlMs can only come from a release.
  const fixture = daemonFixture({
    mcp: { allowedCommands: [process.execPath], lease: { ttlMs: 10_000, renewMs: 200 } },
  });
  let survivor: Daemon | undefined;
  afterAll(async () => {
    await survivor?.close();
    await fixture.stop();
  });

  it('gives its leases up: another replica holds the server long before ttlMs, and a detach ends it', async () => {
    const leaving = await fixture.start();
    const tenant = tenantId('handover');
    const client = await fixture.client(tenant);
    const dir = mkdtempSync(join(tmpdir(), 'toolsearchd-handover-'));
    const tools = join(dir, 'tools.json');
    writeFileSync(
      tools,
      JSON.stringify([{ name: 'lookup', description: 'Look up.', inputSchema: { type: 'object' } }]),
    );
    await client.call(ENDPOINTS.mcpAttach, {
      name: 'records',
      transport: { type: 'stdio', command: process.execPath, args: [FIXTURE, tools] },
    });
    expect(leaving.mcpServers()).toEqual([{ tenant, server: 'records', connected: true }]);
    survivor = await startDaemon(fixture.config);
    const other = survivor;
    await sleep(500);
    // Held by the first replica, the second does not take it.
    expect(other.mcpServers()).toEqual([]);
    await leaving.close();
    const left = Date.now();
    await eventually(() => expect(other.mcpServers()).toEqual([{ tenant, server: 'records', connected: true }]), 9000);
    expect(Date.now() - left).toBeLessThan(5000);

    const reply = await client.call(ENDPOINTS.mcpDetach, { name: 'records' });
    expect(reply.detached).toBe(true);
    expect(other.mcpServers()).toEqual([]);
    const { toolsets } = await client.call(ENDPOINTS.toolsetsList, {});
    expect(toolsets.map((toolset) => toolset.id)).not.toContain('mcp-records');
    const keys = new RedisKeys(fixture.config.namespace.redisPrefix);
    const redis = new Redis(fixture.config.redis.url ?? '');
    try {
      expect(
        await redis.exists(
          keys.tenant(tenant, 'mcp', 'attach', 'records'),
          keys.tenant(tenant, 'mcp', 'lease', 'records'),
        ),
      ).toBe(0);
      expect(await redis.smembers(keys.tenant(tenant, 'mcp', 'attached'))).toEqual([]);
    } finally {
      redis.disconnect();
    }
  }, 30_000);
});
