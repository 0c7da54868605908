/**
 * bench:daemon's memory measurement: resident memory of a fresh daemon with 10,000 open sessions
 * across 100 tenants sharing 20 distinct catalogs, on open NATS.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { NatsConnection } from 'nats';
import type { Toolset } from '@toolsearch/catalog';
import { ToolsearchClient } from '@toolsearch/client';
import { BENCH_KEY, NATS_URL, openNats, removeDeployment, startDaemonProcess, stopDaemonProcess } from './deployment';

function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round((kb / 1024) * 10) / 10;
}

async function memory(nc: NatsConnection, pid: number, toolsets: Toolset[]) {
  const baseline = rssMiB(pid);
  // 20 distinct catalogs: consecutive slices of the union's servers.
  const per = Math.ceil(toolsets.length / 20);
  const catalogs = Array.from({ length: 20 }, (_, i) => toolsets.slice(i * per, (i + 1) * per));
  const tenants = Array.from({ length: 100 }, (_, i) => `mem-${i}-${randomUUID().slice(0, 6)}`);
  let opened = 0;
  for (const [index, tenant] of tenants.entries()) {
    const client = new ToolsearchClient(nc, tenant, { timeoutMs: 30_000, credential: BENCH_KEY });
    const catalog = catalogs[index % 20] ?? [];
    for (const toolset of catalog) await client.putToolset(toolset);
    const grant = { toolsets: catalog.map((t) => t.id) };
    await Promise.all(
      Array.from({ length: 100 }, async () => {
        await client.openSession({ grant, model: { contextLength: 200_000 } });
        opened += 1;
      }),
    );
  }
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const afterBurst = rssMiB(pid);
  // V8 gives back the heap it grew to during the burst only once its memory reducer runs (it
  // starts 8 s after the last major GC and needs the process idle): sample until 45 s of quiet.
  const settled: number[] = [];
  for (let second = 4; second <= 45; second += 3) {
    await new Promise((resolve) => setTimeout(resolve, 3000));
    settled.push(rssMiB(pid));
  }
  return {
    tenants: tenants.length,
    sessions: opened,
    distinct_catalogs: 20,
    rss_before_mib: baseline,
    rss_2s_after_burst_mib: afterBurst,
    rss_settled_mib: settled[settled.length - 1],
    rss_samples_every_3s_mib: settled,
  };
}

/** The daemon's memory with 10,000 sessions, on a fresh daemon on open NATS. */
export async function memoryRun(toolsets: Toolset[]) {
  const namespace = `bench-${randomUUID().slice(0, 8)}-mem`;
  const nats = openNats(NATS_URL);
  const fresh = await startDaemonProcess(namespace, nats.daemon);
  process.once('exit', () => fresh.kill('SIGKILL'));
  const { nc } = await nats.client('');
  try {
    return await memory(nc, fresh.pid ?? 0, toolsets);
  } finally {
    await nc.close();
    await stopDaemonProcess(fresh);
    await removeDeployment(namespace, nats.daemon);
  }
}
