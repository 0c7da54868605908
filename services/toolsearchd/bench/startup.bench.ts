/**
 * Process start-up: the daemon's sources run through tsx (as every deployment did before the
 * compiled daemon) against the bundle run by plain node (what ships now), in alternating rounds.
 * Two measures per round and way:
 * - `load`: spawn until exit on a config file that does not exist — node, the loader and every
 *   module of the daemon, nothing else (no connection);
 * - `serving`: spawn until the "toolsearchd serving" log line, with NATS and Redis at
 *   TOOLSEARCH_NATS_URL / TOOLSEARCH_REDIS_URL (default 127.0.0.1:4222 and :6379), no tenant.
 * And the resident memory once serving; `node -e ''` alongside, the floor of any node process. `ROUNDS=9 npm run bench:startup -w @toolsearch/daemon`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
/* eslint-disable @nx/enforce-module-boundaries */
// @ts-expect-error -- a plain ESM script without type declarations.
import { ensureBuilt } from '../../../scripts/build.mjs';
/* eslint-enable @nx/enforce-module-boundaries */
import { removeDeployment } from './deployment';

const ROUNDS = Number(process.env['ROUNDS'] ?? 7);
const NATS_URL = process.env['TOOLSEARCH_NATS_URL'] ?? 'nats://127.0.0.1:4222';
const REDIS_URL = process.env['TOOLSEARCH_REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const SOURCE = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const BUNDLE = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const WAYS = {
  'tsx (sources)': ['--import', 'tsx', SOURCE],
  'node (bundle)': [BUNDLE],
} as const;
type Way = keyof typeof WAYS;

/** The environment without TOOLSEARCH_* (the config file is the whole of the daemon's settings). */
const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('TOOLSEARCH_')));

function run(way: Way, config: string): ChildProcess {
  return spawn(process.execPath, [...WAYS[way], '--config', config], { stdio: ['ignore', 'pipe', 'pipe'], env });
}

/** Milliseconds from spawn to exit of `node -e ''`: what any node process costs on this machine. */
async function bareNode(): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await new Promise((resolve) => child.once('exit', resolve));
  return performance.now() - started;
}

/** Milliseconds from spawn to exit on a missing config file. */
async function load(way: Way): Promise<number> {
  const started = performance.now();
  const child = run(way, '/nonexistent/toolsearchd.yaml');
  await new Promise((resolve) => child.once('exit', resolve));
  return performance.now() - started;
}

/** Milliseconds from spawn to "toolsearchd serving", and the process's RSS then (MiB). */
async function serving(way: Way, config: string): Promise<{ ms: number; rssMiB: number }> {
  const started = performance.now();
  const child = run(way, config);
  const ms = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${way}: not serving within 30 s`)), 30_000);
    child.once('exit', (code) => reject(new Error(`${way}: exited with ${code}`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      if (!chunk.toString().includes('toolsearchd serving')) return;
      clearTimeout(timer);
      resolve(performance.now() - started);
    });
  });
  const status = await readFile(`/proc/${child.pid}/status`, 'utf8').catch(() => '');
  const rssKiB = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  child.removeAllListeners('exit');
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
  return { ms, rssMiB: rssKiB / 1024 };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
};

async function main(): Promise<void> {
  await (ensureBuilt as (names: string[]) => Promise<string[]>)(['toolsearchd']);
  const namespace = `bench-startup-${process.pid}`;
  const dir = mkdtempSync(join(tmpdir(), 'toolsearchd-startup-'));
  const config = join(dir, 'config.json');
  writeFileSync(
    config,
    JSON.stringify({
      nats: { url: NATS_URL },
      redis: { url: REDIS_URL },
      security: { insecure: true },
      http: { port: 0 },
      namespace: { bucket: namespace, redisPrefix: `${namespace}:`, queue: namespace },
      log: { level: 'info' },
    }),
  );
  const results: Record<Way, { load: number[]; serving: number[]; rss: number[] }> = {
    'tsx (sources)': { load: [], serving: [], rss: [] },
    'node (bundle)': { load: [], serving: [], rss: [] },
  };
  const ways = Object.keys(WAYS) as Way[];
  const bare: number[] = [];
  try {
    // One unmeasured start of each first: tsx's compile cache and the page cache are warm for both.
    for (const way of ways) await serving(way, config);
    for (let round = 0; round < ROUNDS; round++) {
      bare.push(await bareNode());
      // Alternating, and the order flips each round, so that neither way always goes first.
      for (const way of round % 2 === 0 ? ways : [...ways].reverse()) {
        results[way].load.push(await load(way));
        const { ms, rssMiB } = await serving(way, config);
        results[way].serving.push(ms);
        results[way].rss.push(rssMiB);
      }
    }
  } finally {
    await removeDeployment(namespace, { url: NATS_URL });
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(`process start-up, ${ROUNDS} alternating rounds (median [min–max])`);
  const row = (values: number[], digits = 0) =>
    `${median(values).toFixed(digits)} [${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)}]`;
  console.log(`${'node -e ""'.padEnd(14)} load ${row(bare)} ms`);
  for (const way of ways) {
    const { load: loads, serving: serves, rss } = results[way];
    console.log(`${way.padEnd(14)} load ${row(loads)} ms   serving ${row(serves)} ms   RSS serving ${row(rss, 1)} MiB`);
  }
  // Each round's two starts ran back to back: their difference is less exposed to the machine's
  // drift than the two medians are.
  const [before, after] = ways.map((way) => results[way]);
  const saved = (measure: 'load' | 'serving') =>
    row(before?.[measure].map((ms, round) => ms - (after?.[measure][round] ?? NaN)) ?? []);
  console.log(`saved per round: load ${saved('load')} ms, serving ${saved('serving')} ms`);
}

await main();
