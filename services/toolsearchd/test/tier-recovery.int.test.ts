import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { connect, type NatsConnection } from 'nats';
import { afterAll, describe, expect, it } from 'vitest';
import { ToolsearchClient } from '@toolsearch/client';
import type { TierEvent } from '@toolsearch/proto';
import type { Daemon } from '../src/daemon';
import {
  cleanup,
  eventually,
  exited,
  freePort,
  NATS_URL,
  startDaemon,
  tenantId,
  TEST_KEYS,
  testConfig,
} from './harness';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A Redis of this test's own on a free port, with every write on disk before it is acknowledged
 * (AOF, fsync always): killed with SIGKILL and started again on the same folder, it comes back
 * with the sessions and their published hashes.
 */
function startRedis(port: number, dir: string): ChildProcess {
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', ''];
  return spawn('redis-server', [...args, '--appendonly', 'yes', '--appendfsync', 'always'], { stdio: 'ignore' });
}

async function redisAnswers(url: string): Promise<void> {
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    await probe.ping();
  } finally {
    probe.disconnect();
  }
}

describe('a tier event owed while Redis is down', () => {
  const servers: ChildProcess[] = [];
  const connections: NatsConnection[] = [];
  let daemon: Daemon | undefined;
  afterAll(async () => {
    for (const nc of connections) await nc.close().catch(() => undefined);
    await daemon?.close();
    for (const server of servers) server.kill('SIGKILL');
  });

  it('is published once Redis is back: the change was applied, the event was not lost', async () => {
    const port = await freePort();
    const dir = mkdtempSync(join(tmpdir(), 'toolsearch-tier-recovery-'));
    const url = `redis://127.0.0.1:${port}`;
    servers.push(startRedis(port, dir));
    await eventually(() => redisAnswers(url));
    const config = testConfig({ redis: { url } });
    daemon = await startDaemon(config);
    const nc = await connect({ servers: NATS_URL });
    connections.push(nc);
    const client = new ToolsearchClient(nc, tenantId('owed'), { timeoutMs: 3000, credential: TEST_KEYS.test });
    await client.putToolset({ id: 'notes', kind: 'plugin', tools: [{ name: 'add_note', description: 'Add a note.' }] });
    const { session } = await client.openSession({
      grant: { toolsets: ['notes', 'mcp-github'] },
      model: { contextLength: 128_000 },
    });
    const before = await client.assemble(session.id);
    const events: TierEvent[] = [];
    const subscription = client.onTier(session.id, (event) => events.push(event));
    await nc.flush();

    // Down: the change still lands (the registry is JetStream), and this replica serves it...
    servers[0]?.kill('SIGKILL');
    if (servers[0] !== undefined) await exited(servers[0]);
    await client.putToolset({
      id: 'mcp-github',
      kind: 'mcp',
      tools: [{ name: 'create_issue', description: 'Open an issue.' }],
    });
    const during = await client.assemble(session.id);
    expect(during.hash).not.toBe(before.hash);
    // ...but the hash swap cannot run, so the event is owed, not sent.
    await sleep(500);
    expect(events).toEqual([]);

    // Back, same port and folder: the owed event arrives, once, with the surface assemble showed.
    servers[0] = startRedis(port, dir);
    await eventually(() => expect(events.length).toBeGreaterThan(0), 15_000);
    await sleep(500);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ session: session.id, hash: during.hash, deferred_count: during.deferred_count });
    subscription.unsubscribe();
    await daemon.close();
    await cleanup(config).catch(() => undefined);
  }, 60_000);
});
