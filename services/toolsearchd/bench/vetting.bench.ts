/**
 * What tool vetting costs when the daemon registers a catalog: the Toucan catalog (6,041 tools,
 * 870 toolsets) registered through `Daemon.registerToolsets` — what `main.ts` does with a
 * config catalog: each toolset's limits, vetting (digests, pins loaded from and saved to Redis,
 * the poisoning scan, the policy, the audit records), encoding, the NATS KV put and the fan-out —
 * into a fresh tenant each round, with the catalog file parsed first as `main.ts` parses it.
 *
 * The vetting has no off switch (every stored toolset passes it; see `DefinitionGate`), so the
 * scan is timed inside the registration: the gate reports the time in the scanner (with its
 * per-toolset set-up and its findings cache) and in the whole vetting of each toolset
 * (`toolsearch_vetting_duration_seconds`), and the bench reads the sums per round. "Before" is
 * the registration less the scan (or less the whole vetting, for what vetting adds).
 *
 * Real infrastructure on loopback: a nats-server of its own (JetStream, free port, temporary
 * store) and Redis at TOOLSEARCH_REDIS_URL (default 127.0.0.1:6379) under a namespace of its own,
 * both removed at the end.
 *
 *   npm run bench:vetting -- [--rounds 8] [--json]
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { parseCatalogFiles } from '@toolsearch/catalog';
import { hasSharedData, SHARED_CATALOGS, SHARED_DATA_SKIP_REASON, sharedDataPath } from '@toolsearch/testing';
import { parseDaemonConfig } from '../src/config';
import { Daemon } from '../src/daemon';
import { cleanup } from '../test/harness';
import { startNats } from './noisy-processes';

const REDIS_URL = process.env['TOOLSEARCH_REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const METRIC = 'toolsearch_vetting_duration_seconds';

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? NaN)
    : ((sorted[middle - 1] ?? NaN) + (sorted[middle] ?? NaN)) / 2;
};

/** Seconds summed so far in the scanner and in the whole vetting (the histogram's `_sum` series). */
async function vettingSums(daemon: Daemon): Promise<{ scan: number; total: number }> {
  const metric = daemon.metrics.registry.getSingleMetric(METRIC);
  const values = metric === undefined ? [] : (await metric.get()).values;
  const sum = (phase: string) =>
    values.find(
      (value) => (value as { metricName?: string }).metricName === `${METRIC}_sum` && value.labels['phase'] === phase,
    )?.value ?? 0;
  return { scan: sum('scan'), total: sum('total') };
}

interface Round {
  readonly parseMs: number;
  readonly registerMs: number;
  readonly scanMs: number;
  readonly vettingMs: number;
}

async function main(): Promise<void> {
  const { values: args } = parseArgs({
    options: { rounds: { type: 'string', default: '8' }, json: { type: 'boolean', default: false } },
  });
  if (!hasSharedData()) {
    console.log(SHARED_DATA_SKIP_REASON);
    return;
  }
  const rounds = Math.max(1, Number(args.rounds));
  const file = SHARED_CATALOGS.toucan;
  const text = readFileSync(sharedDataPath(file), 'utf8');
  const nats = await startNats();
  const id = randomUUID().replace(/-/g, '').slice(0, 12);
  const config = parseDaemonConfig({
    nats: { url: nats.url },
    redis: { url: REDIS_URL },
    namespace: { bucket: `bench-vet-${id}`, redisPrefix: `bench-vet-${id}:`, queue: `bench-vet-${id}` },
    log: { level: 'silent' },
    security: { insecure: true },
    http: { enabled: false },
  });
  const daemon = new Daemon(config, { logger: pino({ level: 'silent' }) });
  const results: Round[] = [];
  let tools = 0;
  let toolsets = 0;
  try {
    await daemon.start();
    // Round 0 warms the code paths up (JIT, connections) and is reported apart.
    for (let round = 0; round <= rounds; round += 1) {
      (globalThis as { gc?: () => void }).gc?.();
      await new Promise((resolve) => setTimeout(resolve, 300));
      const before = await vettingSums(daemon);
      const started = performance.now();
      const parsed = parseCatalogFiles([{ source: file, text }]);
      if (!parsed.ok) throw new Error(parsed.error.message);
      const parsedAt = performance.now();
      await daemon.registerToolsets(`bench-${round}-${id.slice(0, 6)}`, parsed.toolsets);
      const registerMs = performance.now() - started;
      const after = await vettingSums(daemon);
      tools = parsed.toolsets.reduce((count, toolset) => count + toolset.tools.length, 0);
      toolsets = parsed.toolsets.length;
      results.push({
        parseMs: parsedAt - started,
        registerMs,
        scanMs: (after.scan - before.scan) * 1000,
        vettingMs: (after.total - before.total) * 1000,
      });
    }
  } finally {
    await daemon.close();
    await cleanup(config);
    await nats.stop();
  }
  report(results, { tools, toolsets, json: args.json });
}

function report(results: readonly Round[], info: { tools: number; toolsets: number; json: boolean }): void {
  const [warmup, ...measured] = results;
  const percent = (part: number, whole: number) => `${((part / whole) * 100).toFixed(1)} %`;
  const scanShare = measured.map((round) => round.scanMs / (round.registerMs - round.scanMs));
  const summary = {
    tools: info.tools,
    toolsets: info.toolsets,
    rounds: measured.length,
    registerMs: median(measured.map((round) => round.registerMs)),
    parseMs: median(measured.map((round) => round.parseMs)),
    scanMs: median(measured.map((round) => round.scanMs)),
    vettingMs: median(measured.map((round) => round.vettingMs)),
    scanAddsPercent: median(scanShare) * 100,
    vettingAddsPercent: median(measured.map((round) => round.vettingMs / (round.registerMs - round.vettingMs))) * 100,
  };
  if (info.json) {
    console.log(JSON.stringify({ warmup, rounds: measured, summary }, null, 2));
    return;
  }
  console.log(`toucan: ${info.tools} tools in ${info.toolsets} toolsets, a fresh tenant each round`);
  console.log('round  register (parse)    scan   vetting  scan adds  vetting adds');
  results.forEach((round, index) => {
    const label = index === 0 ? 'warm' : String(index).padStart(4);
    console.log(
      `${label}  ${round.registerMs.toFixed(0).padStart(6)} ms (${round.parseMs.toFixed(0).padStart(3)})` +
        `  ${round.scanMs.toFixed(1).padStart(6)}  ${round.vettingMs.toFixed(0).padStart(5)} ms` +
        `  ${percent(round.scanMs, round.registerMs - round.scanMs).padStart(9)}` +
        `  ${percent(round.vettingMs, round.registerMs - round.vettingMs).padStart(12)}`,
    );
  });
  console.log(
    `median of ${summary.rounds}: register ${summary.registerMs.toFixed(0)} ms (parse ${summary.parseMs.toFixed(0)}), ` +
      `scan ${summary.scanMs.toFixed(1)} ms, whole vetting ${summary.vettingMs.toFixed(0)} ms; ` +
      `the scan adds ${summary.scanAddsPercent.toFixed(1)} % to registering without it ` +
      `(range ${(Math.min(...scanShare) * 100).toFixed(1)} – ${(Math.max(...scanShare) * 100).toFixed(1)} %), ` +
      `the whole vetting ${summary.vettingAddsPercent.toFixed(1)} %`,
  );
}

await main();
