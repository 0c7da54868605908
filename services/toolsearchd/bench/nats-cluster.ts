/**
 * The `cluster` deployment of bench:daemon: three nats-server nodes of the benchmark's own in one
 * JetStream cluster on free loopback ports, without authentication (like `open`). The daemon gets
 * the seed list and creates the registry bucket with 3 replicas; each load client connects through
 * the seed list too, so nats.js spreads them over the nodes and a request often crosses a route.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'nats';
import { exited, freePort } from '../test/harness';
import type { BenchNats } from './deployment';

export async function clusterNats(): Promise<BenchNats> {
  const name = `bench-${process.pid}`;
  const ports = await Promise.all([0, 1, 2].map(async () => ({ client: await freePort(), route: await freePort() })));
  const routes = ports.map((port) => `nats://127.0.0.1:${port.route}`).join(',');
  const dirs = ports.map(() => mkdtempSync(join(tmpdir(), 'toolsearchd-bench-cluster-')));
  const servers = ports.map((port, index) =>
    spawn(
      'nats-server',
      ['-a', '127.0.0.1', '-p', String(port.client), '-js', '-sd', dirs[index] ?? '', '-n', `${name}-n${index}`].concat(
        ['--cluster_name', name, '--cluster', `nats://127.0.0.1:${port.route}`, '--routes', routes],
      ),
      { stdio: 'ignore' },
    ),
  );
  process.once('exit', () => servers.forEach((server) => server.kill('SIGKILL')));
  const url = ports.map((port) => `nats://127.0.0.1:${port.client}`).join(',');
  // Ready once JetStream has a meta leader: the account info request answers.
  for (let attempt = 0; ; attempt++) {
    try {
      const nc = await connect({ servers: url.split(',') });
      await (await nc.jetstreamManager({ timeout: 2000 })).getAccountInfo();
      await nc.close();
      break;
    } catch (error) {
      if (attempt > 100) throw new Error(`the NATS cluster did not elect a JetStream leader: ${String(error)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  return {
    kind: 'cluster',
    pid: servers[0]?.pid,
    daemon: { url, kvReplicas: 3 },
    client: async () => ({ nc: await connect({ servers: url.split(',') }), inboxPrefix: '_INBOX' }),
    stop: async () => {
      for (const server of servers) server.kill('SIGTERM');
      await Promise.all(servers.map((server) => exited(server)));
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    },
  };
}
