import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, JSONCodec, type NatsConnection } from 'nats';
import { afterAll, describe, expect, it } from 'vitest';
import { ToolsearchClient } from '@toolsearch/client';
import { ToolsetSchema } from '@toolsearch/catalog';
import type { TierEvent } from '@toolsearch/proto';
import {
  cleanup,
  collect,
  eventually,
  exited,
  freePort,
  startDaemon,
  tenantId,
  TEST_KEYS,
  testConfig,
} from './harness';

/** A NATS server of this test's own (never the shared one), with JetStream on a temporary folder. */
function startNats(port: number, storeDir: string): ChildProcess {
  return spawn('nats-server', ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir], { stdio: 'ignore' });
}

describe('a NATS restart', () => {
  const servers: ChildProcess[] = [];
  afterAll(() => {
    for (const server of servers) server.kill('SIGKILL');
  });

  it('misses no toolset change: the registry watch resumes after reconnecting', async () => {
    const port = await freePort();
    const storeDir = mkdtempSync(join(tmpdir(), 'toolsearch-nats-fault-'));
    servers.push(startNats(port, storeDir));
    const url = `nats://127.0.0.1:${port}`;
    const config = testConfig({ nats: { url } });
    const tenant = tenantId('fault');
    const client = (nc: NatsConnection) =>
      new ToolsearchClient(nc, tenant, { timeoutMs: 2000, credential: TEST_KEYS.test });
    const observer = await eventually(
      () => connect({ servers: url, maxReconnectAttempts: -1, reconnectTimeWait: 100 }),
      10_000,
    );
    // A fresh server needs a moment before JetStream answers.
    const daemon = await eventually(() => startDaemon(config), 15_000);
    try {
      const api = client(observer);
      await api.putToolset({ id: 'mcp-x', kind: 'mcp', label: 'x', tools: [{ name: 'first', description: 'First.' }] });
      const { session } = await api.openSession({ grant: { toolsets: ['mcp-x'] }, model: { contextLength: 128_000 } });
      expect(await api.assemble(session.id)).toMatchObject({ deferred_count: 1 });

      // Hard stop, then the same server again on the same port and store.
      servers[0]?.kill('SIGKILL');
      if (servers[0] !== undefined) await exited(servers[0]);
      await expect(api.assemble(session.id)).rejects.toBeDefined();
      servers.push(startNats(port, storeDir));

      // A writer that is back first changes the toolset before the daemon has reconnected.
      const writer = await eventually(() => connect({ servers: url }), 10_000);
      const kv = await eventually(() => writer.jetstream().views.kv(config.namespace.bucket), 10_000);
      const changed = ToolsetSchema.parse({
        id: 'mcp-x',
        kind: 'mcp',
        label: 'x',
        tools: [
          { name: 'first', description: 'First.' },
          { name: 'second', description: 'Second.' },
        ],
      });
      await kv.put(`${tenant}.${Buffer.from('mcp-x').toString('base64url')}`, JSONCodec().encode(changed));
      await writer.close();

      // The daemon reconnects on its own and serves the change it did not see happen.
      const assembled = await eventually(() => api.assemble(session.id), 20_000);
      const events = collect<TierEvent>(1, 10_000);
      const sub = api.onTier(session.id, events.push);
      if (assembled.deferred_count !== 2) {
        const [event] = await events.done;
        expect(event).toMatchObject({ deferred_count: 2 });
      }
      sub.unsubscribe();
      expect(
        await eventually(async () => {
          const result = await api.assemble(session.id);
          if (result.deferred_count !== 2) throw new Error('not yet');
          return result;
        }, 10_000),
      ).toMatchObject({ deferred_count: 2 });

      // And later changes keep flowing as events.
      const later = collect<TierEvent>(1, 10_000);
      const sub2 = api.onTier(session.id, later.push);
      await api.putToolset({ id: 'mcp-x', kind: 'mcp', label: 'x', tools: [{ name: 'third', description: 'Third.' }] });
      expect((await later.done)[0]).toMatchObject({ deferred_count: 1 });
      sub2.unsubscribe();
    } finally {
      await observer.close().catch(() => undefined);
      await daemon.close();
      await cleanup(config).catch(() => undefined);
    }
  }, 60_000);
});
