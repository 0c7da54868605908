/**
 * The processes of bench:noisy (noisy-neighbour.ts): a nats-server of its own, the daemon under
 * test (this checkout's or an older one's) with an event-loop monitor preloaded, and tenant A's
 * load generator (noisy-attacks.ts). Every process started here is killed if the run ends early.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { connect } from 'nats';
import { exited, freePort } from '../test/harness';
import { openNats, type BenchNats } from './deployment';
import type { AttackSpec } from './noisy-attacks';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const ATTACKS = join(HERE, 'noisy-attacks.ts');
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** Every process this run started, killed if the run ends early (an error, a failed setup). */
const children = new Set<ChildProcess>();
process.once('exit', () => children.forEach((child) => child.kill('SIGKILL')));

/** The output of a child started with a piped stdout. */
function stdoutOf(child: ChildProcess): NodeJS.ReadableStream {
  if (child.stdout === null) throw new Error('the child process has no piped stdout');
  return child.stdout;
}
function track(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/**
 * Preloaded into the daemon: its event loop's longest delay in each 100 ms, and the garbage
 * collector's pauses in the same 100 ms (longest, total, and the longest of the full collections),
 * one JSON line each, appended to $NOISY_LOOP_DELAY_FILE (only by the daemon, not by processes it
 * starts).
 */
export const LOOP_MONITOR = `data:text/javascript,${encodeURIComponent(
  `import{appendFileSync}from'node:fs';import{monitorEventLoopDelay,PerformanceObserver,constants}from'node:perf_hooks';` +
    `const f=process.env.NOISY_LOOP_DELAY_FILE;if(f&&(process.argv[1]??'').endsWith('main.ts')){` +
    `let g={max:0,total:0,major:0};new PerformanceObserver((l)=>{for(const e of l.getEntries()){` +
    `g.max=Math.max(g.max,e.duration);g.total+=e.duration;` +
    `if(e.detail?.kind===constants.NODE_PERFORMANCE_GC_MAJOR)g.major=Math.max(g.major,e.duration)}})` +
    `.observe({entryTypes:['gc']});` +
    `const h=monitorEventLoopDelay({resolution:5});h.enable();setInterval(()=>{` +
    `appendFileSync(f,JSON.stringify({at:Date.now(),maxMs:h.max/1e6,gcMaxMs:g.max,gcMs:g.total,gcMajorMs:g.major})+'\\n');` +
    `h.reset();g={max:0,total:0,major:0}},100).unref()}`,
)}`;

/** A nats-server with JetStream on a free port, so that no other daemon answers our requests. */
export async function startNats(): Promise<BenchNats & { url: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'toolsearchd-noisy-nats-'));
  const port = await freePort();
  const server = track(
    spawn('nats-server', ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', dir], { stdio: 'ignore' }),
  );
  const url = `nats://127.0.0.1:${port}`;
  for (let attempt = 0; ; attempt += 1) {
    const nc = await connect({ servers: url }).catch(() => undefined);
    if (nc !== undefined) {
      await nc.close();
      break;
    }
    if (attempt > 100) throw new Error(`nats-server did not start on ${port}`);
    await sleep(100);
  }
  const open = openNats(url);
  return {
    ...open,
    url,
    pid: server.pid,
    stop: async () => {
      server.kill('SIGTERM');
      await exited(server);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface Target {
  /** The checkout whose daemon runs. */
  readonly root: string;
  /** Code from before #17: no credentials, quotas or HTTP caps in its config. */
  readonly legacy: boolean;
}

export interface RunningDaemon {
  readonly child: ChildProcess;
  readonly loopFile: string;
  readonly httpUrl: string;
}

export async function startDaemon(target: Target, config: object, port: number): Promise<RunningDaemon> {
  const dir = mkdtempSync(join(tmpdir(), 'toolsearchd-noisy-'));
  const file = join(dir, 'config.json');
  const loopFile = join(dir, 'loop-delay.jsonl');
  writeFileSync(file, JSON.stringify(config));
  // The config file is the whole of its connection settings.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^TOOLSEARCH_(NATS|REDIS|INSECURE|CONFIG)/.test(name)),
  );
  const main = join(target.root, 'services/toolsearchd/src/main.ts');
  // TOOLSEARCHD_NODE_FLAGS: extra node flags for the daemon (as bench:daemon), e.g. --cpu-prof.
  const flags = (process.env['TOOLSEARCHD_NODE_FLAGS'] ?? '').split(/\s+/).filter((flag) => flag !== '');
  const child = track(
    spawn(process.execPath, [...flags, '--import', LOOP_MONITOR, '--import', 'tsx', main, '--config', file], {
      cwd: target.root,
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...env, NOISY_LOOP_DELAY_FILE: loopFile },
    }),
  );
  await new Promise<void>((serving, reject) => {
    const timer = setTimeout(() => reject(new Error('toolsearchd did not start within 60 s')), 60_000);
    child.once('exit', (code) => reject(new Error(`toolsearchd exited with ${code}`)));
    createInterface({ input: stdoutOf(child) }).on('line', (line) => {
      if (/"level":[56]0/.test(line)) console.error(line.slice(0, 400));
      if (line.includes('toolsearchd serving')) {
        clearTimeout(timer);
        serving();
      }
    });
  });
  const httpUrl = `http://127.0.0.1:${port}`;
  for (
    let attempt = 0;
    !(await fetch(`${httpUrl}/healthz`).then(
      (r) => r.ok,
      () => false,
    ));
    attempt += 1
  ) {
    if (attempt > 100) throw new Error('toolsearchd HTTP did not answer /healthz');
    await sleep(100);
  }
  return { child, loopFile, httpUrl };
}

/** SIGTERM, then SIGKILL if it has not exited in 15 s (a daemon stuck in a pattern never will). */
export async function stopDaemon(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited(child);
  clearTimeout(timer);
}

/**
 * The daemon's longest event-loop delay between `from` and `to` (epoch ms), as its monitor saw it,
 * and how many 100 ms windows held one over 20 ms. A daemon stuck for good writes no sample after
 * it froze: then the delay is at least the time from its last sample to `to`.
 */
export function loopDelay(file: string, from: number, to: number) {
  const samples = existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => line !== '')
        .map(
          (line) =>
            JSON.parse(line) as { at: number; maxMs: number; gcMaxMs?: number; gcMs?: number; gcMajorMs?: number },
        )
    : [];
  // A sample covers the 100 ms before it: the one just after `to` still counts.
  const inWindow = samples.filter((sample) => sample.at > from && sample.at <= to + 100);
  let max = Math.max(0, ...inWindow.map((sample) => sample.maxMs));
  const last = samples[samples.length - 1]?.at ?? from;
  if (last < to - 1000) max = Math.max(max, to - Math.max(last, from));
  // The monitor's own timer is late when the loop is busy, and a histogram reset just before a
  // long turn misses that turn: the time between its samples is the other reading.
  const gaps = inWindow.map((sample, i) => sample.at - (inWindow[i - 1]?.at ?? sample.at) - 100);
  return {
    max_ms: Number(max.toFixed(1)),
    longest_sample_gap_ms: Math.max(0, ...gaps),
    windows_over_20ms: inWindow.filter((sample) => sample.maxMs > 20).length,
    stuck: last < to - 1000,
    // The garbage collector over the same window: its longest pause, the longest full
    // (mark-compact) collection, the share of the window spent paused, and pauses over 10 ms.
    gc: {
      max_pause_ms: Number(Math.max(0, ...inWindow.map((sample) => sample.gcMaxMs ?? 0)).toFixed(1)),
      max_major_ms: Number(Math.max(0, ...inWindow.map((sample) => sample.gcMajorMs ?? 0)).toFixed(1)),
      paused_share: Number(
        (inWindow.reduce((sum, sample) => sum + (sample.gcMs ?? 0), 0) / Math.max(1, to - from)).toFixed(3),
      ),
      windows_with_pause_over_10ms: inWindow.filter((sample) => (sample.gcMaxMs ?? 0) > 10).length,
    },
  };
}

export function rssMiB(pid: number | undefined): number {
  try {
    const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    return Math.round(kb / 1024);
  } catch {
    return NaN;
  }
}

/** Tenant A's process: resolves `ready` once set up; `go()` starts it; `result` is its report. */
export function startAttacker(spec: AttackSpec) {
  const child = track(
    spawn(process.execPath, ['--import', 'tsx', ATTACKS, JSON.stringify(spec)], {
      cwd: resolve(HERE, '..'),
      stdio: ['pipe', 'pipe', 'inherit'],
    }),
  );
  const lines = createInterface({ input: stdoutOf(child) });
  let last = '';
  const ready = new Promise<void>((done, reject) => {
    lines.on('line', (line) => {
      last = line;
      if (line === 'ready') done();
    });
    child.once('exit', (code) => reject(new Error(`tenant A exited with ${code} before it was ready`)));
  });
  const result = new Promise<Record<string, unknown>>((done) =>
    child.once('exit', () =>
      done(last.startsWith('{') ? (JSON.parse(last) as Record<string, unknown>) : { failed: last }),
    ),
  );
  return { child, ready, result, go: () => child.stdin?.write('go\n') };
}

/**
 * The machine's own noise over a window: a Node process that does nothing but sample its event
 * loop's delay (5 ms resolution, 100 ms windows), run beside the daemon. On the project's 2-core
 * machines an idle process sees stalls of about 20 ms several times a minute; a daemon's p99
 * cannot be read without this floor. `stop()` resolves with the worst delay and how many 100 ms
 * windows had one over 15 ms.
 */
export function machineFloor(): { stop: () => Promise<{ worst_ms: number; windows: number; over_15ms: number }> } {
  const probe =
    `const{monitorEventLoopDelay}=require('node:perf_hooks');const h=monitorEventLoopDelay({resolution:5});h.enable();` +
    `let w=0,o=0,m=0;setInterval(()=>{const d=h.max/1e6;w++;if(d>15)o++;m=Math.max(m,d);h.reset()},100);` +
    `process.stdin.on('data',()=>{process.stdout.write(JSON.stringify({worst_ms:+m.toFixed(1),windows:w,over_15ms:o}));process.exit(0)})`;
  const child = track(spawn(process.execPath, ['-e', probe], { stdio: ['pipe', 'pipe', 'ignore'] }));
  let out = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return {
    stop: async () => {
      child.stdin?.write('\n');
      await exited(child);
      return JSON.parse(out || '{"worst_ms":null,"windows":0,"over_15ms":0}') as {
        worst_ms: number;
        windows: number;
        over_15ms: number;
      };
    },
  };
}
