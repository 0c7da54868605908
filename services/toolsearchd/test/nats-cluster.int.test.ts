import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { connect, type NatsConnection } from 'nats';
import { afterAll, describe, expect, it } from 'vitest';
import { ToolsearchClient } from '@toolsearch/client';
import { ToolsearchWireError, type TierEvent } from '@toolsearch/proto';
import type { Daemon } from '../src/daemon';
import { eventually, exited, freePort, startDaemon, tenantId, TEST_KEYS, testConfig } from './harness';

interface Node {
  readonly name: string;
  readonly url: string;
  readonly process: ChildProcess;
  readonly storeDir: string;
}

/** Three nats-server nodes of this test's own in one JetStream cluster, on free ports. */
async function startCluster(): Promise<Node[]> {
  const cluster = `ts-${randomUUID().slice(0, 8)}`;
  const ports = await Promise.all([0, 1, 2].map(async () => ({ client: await freePort(), route: await freePort() })));
  const routes = ports.map((port) => `nats://127.0.0.1:${port.route}`).join(',');
  return ports.map((port, index) => {
    const name = `${cluster}-n${index}`;
    const storeDir = mkdtempSync(join(tmpdir(), 'toolsearch-nats-cluster-'));
    const args = ['-a', '127.0.0.1', '-p', String(port.client), '-js', '-sd', storeDir, '-n', name];
    args.push('--cluster_name', cluster, '--cluster', `nats://127.0.0.1:${port.route}`, '--routes', routes);
    const child = spawn('nats-server', args, { stdio: 'ignore' });
    return { name, url: `nats://127.0.0.1:${port.client}`, process: child, storeDir };
  });
}

function toolset(tools: number) {
  return {
    id: 'mcp-x',
    kind: 'mcp',
    label: 'x',
    tools: Array.from({ length: tools }, (_, index) => ({ name: `tool_${index}`, description: `Tool ${index}.` })),
  };
}

function errorCode(error: unknown): string {
  return error instanceof ToolsearchWireError ? error.code : `not a wire error: ${String(error)}`;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a clustered NATS losing the registry stream leader', () => {
  const nodes: Node[] = [];
  const connections: NatsConnection[] = [];
  let daemon: Daemon | undefined;
  afterAll(async () => {
    for (const nc of connections) await nc.close().catch(() => undefined);
    await daemon?.close();
    for (const node of nodes) node.process.kill('SIGKILL');
    await Promise.all(nodes.map((node) => exited(node.process)));
    for (const node of nodes) rmSync(node.storeDir, { recursive: true, force: true });
  });

  it('keeps searches answering, refuses puts only as UNAVAILABLE for a short gap, and recovers by itself', async () => {
    nodes.push(...(await startCluster()));
    const seeds = nodes.map((node) => node.url).join(',');
    const config = testConfig({ nats: { url: seeds, kvReplicas: 3 } });
    // The cluster elects its JetStream meta leader before a bucket can be created.
    daemon = await eventually(() => startDaemon(config), 20_000);
    const admin = await connect({ servers: seeds });
    connections.push(admin);
    const jsm = await admin.jetstreamManager();
    const stream = `KV_${config.namespace.bucket}`;
    const info = await jsm.streams.info(stream);
    expect(info.config.num_replicas).toBe(3);

    // The daemon's own node dying is a reconnect (nats-restart.int.test.ts); here only the
    // stream leader goes, so the leader is moved off the daemon's node if it is there.
    const daemonNode = daemon.nats.info?.server_name;
    let leader = info.cluster?.leader;
    while (leader === daemonNode) {
      await admin.request(`$JS.API.STREAM.LEADER.STEPDOWN.${stream}`, undefined, { timeout: 5000 });
      leader = await eventually(async () => {
        const next = (await jsm.streams.info(stream)).cluster?.leader;
        if (next === undefined || next === daemonNode) throw new Error('no new leader yet');
        return next;
      }, 10_000);
    }
    const victim = nodes.find((node) => node.name === leader);
    const clientNode = nodes.find((node) => node.name !== leader);
    if (victim === undefined || clientNode === undefined) throw new Error(`no node named ${String(leader)}`);
    const clientConnection = await connect({ servers: clientNode.url });
    connections.push(clientConnection);
    const tenant = tenantId('cluster');
    const api = new ToolsearchClient(clientConnection, tenant, { timeoutMs: 8000, credential: TEST_KEYS.test });

    await api.putToolset(toolset(1));
    const { session } = await api.openSession({ grant: { toolsets: ['mcp-x'] }, model: { contextLength: 128_000 } });
    const seen = new Set<number>();
    const sub = api.onTier(session.id, (event: TierEvent) => seen.add(event.deferred_count));

    const acked: number[] = [];
    const putFailures: string[] = [];
    const searchFailures: string[] = [];
    let searches = 0;
    let killedAt = 0;
    let firstAckAfterKill = 0;
    let running = true;
    const putLoop = (async () => {
      for (let tools = 2; running; tools++) {
        try {
          await api.putToolset(toolset(tools));
          acked.push(tools);
          if (killedAt > 0 && firstAckAfterKill === 0) firstAckAfterKill = performance.now();
        } catch (error) {
          putFailures.push(errorCode(error));
        }
        await sleep(100);
      }
    })();
    const searchLoop = (async () => {
      while (running) {
        try {
          await api.search(session.id, ['tool']);
          searches++;
        } catch (error) {
          searchFailures.push(errorCode(error));
        }
        await sleep(50);
      }
    })();

    await sleep(1500);
    victim.process.kill('SIGKILL');
    await exited(victim.process);
    killedAt = performance.now();
    const deadline = killedAt + 30_000;
    // Run until puts have flowed again for a while after the failover.
    while (performance.now() < deadline && (firstAckAfterKill === 0 || performance.now() - firstAckAfterKill < 2000))
      await sleep(100);
    running = false;
    await Promise.all([putLoop, searchLoop]);

    const gapMs = firstAckAfterKill === 0 ? Infinity : firstAckAfterKill - killedAt;
    console.log(
      `NATS failover: puts unavailable for ${Math.round(gapMs)} ms after killing the stream leader ` +
        `(${putFailures.length} put(s) refused, ${acked.length} acked, ${searches} searches, ${searchFailures.length} failed)`,
    );
    expect(searchFailures).toEqual([]);
    expect(new Set(putFailures)).toEqual(new Set(putFailures.length > 0 ? ['UNAVAILABLE'] : []));
    expect(gapMs).toBeLessThanOrEqual(10_000);

    // The session catches up with the last acked put by itself. The client's watch of a lost
    // leader can stall without an error; the daemon notices the stream is ahead of its watch and
    // resumes it. Puts the watch missed meanwhile arrive as one change (the bucket keeps one
    // revision per key), so the session gets one tier event for the newest toolset.
    const last = acked.at(-1) ?? 0;
    const caughtUp = await eventually(() => {
      if (!seen.has(last)) throw new Error(`no tier event for the last acked put (${last} tools)`);
      return performance.now();
    }, 30_000);
    console.log(`NATS failover: the session's tier caught up ${Math.round(caughtUp - killedAt)} ms after the kill`);
    expect(Math.max(...seen)).toBe(last);
    sub.unsubscribe();

    // And the daemon says it is ready again: NATS, the watched registry, Redis. (Alone this takes
    // a few seconds after the catch-up; in a clean-clone run beside the whole suite, where the
    // catch-up itself took 12.8 s, 10 s were once not enough. What it guards against — a registry
    // watch that never recovers without a restart — never comes back at all.)
    await eventually(async () => {
      const response = await fetch(`${daemon?.httpAddress ?? ''}/readyz`);
      const body = (await response.json()) as { checks: Record<string, boolean> };
      expect(body.checks).toMatchObject({ nats: true, registry: true, redis: true });
    }, 25_000);
  }, 90_000);
});
