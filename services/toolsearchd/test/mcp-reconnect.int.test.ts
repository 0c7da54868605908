import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { JSONCodec, KvWatchInclude } from 'nats';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Toolset } from '@toolsearch/catalog';
import { ENDPOINTS } from '@toolsearch/proto';
import { McpPool } from '../src/mcp-pool.adapter';
import { backoffDelay, type Timers } from '../src/mcp-reconnect';
import { daemonFixture, eventually, tenantId } from './harness';

const LAUNCHER = fileURLToPath(new URL('./fixtures/counting-launcher.mjs', import.meta.url));
const NODE = process.execPath;
const TOOLS = [{ name: 'stable', description: 'A tool.', inputSchema: { type: 'object' } }];

/** A stdio server whose starts are counted, and the file that makes it exit ("EXIT") or come back. */
function countedServer() {
  const dir = mkdtempSync(join(tmpdir(), 'toolsearch-reconnect-'));
  const counter = join(dir, 'starts');
  const tools = join(dir, 'tools.json');
  writeFileSync(counter, '');
  writeFileSync(tools, JSON.stringify(TOOLS));
  return {
    transport: { type: 'stdio' as const, command: NODE, args: [LAUNCHER, counter, tools] },
    starts: () => readFileSync(counter, 'utf8').split('\n').filter(Boolean).length,
    down: () => writeFileSync(tools, 'EXIT'),
    up: () => writeFileSync(tools, JSON.stringify(TOOLS)),
  };
}

/** Timers on a simulated clock: nothing fires until `fireNext`, which jumps to the next one due. */
class SimulatedClock implements Timers {
  now = 0;
  readonly scheduled: number[] = [];
  /** The most timers that were ever pending at once (one retry schedule per server: 1). */
  mostPending = 0;
  readonly #pending = new Map<number, { at: number; callback: () => void }>();
  #next = 0;

  setTimeout(callback: () => void, ms: number): number {
    const id = (this.#next += 1);
    this.#pending.set(id, { at: this.now + ms, callback });
    this.scheduled.push(ms);
    this.mostPending = Math.max(this.mostPending, this.#pending.size);
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.#pending.delete(handle as number);
  }
  get pending(): number {
    return this.#pending.size;
  }
  /** When the earliest pending timer is due. */
  nextDue(): number | undefined {
    return Math.min(...[...this.#pending.values()].map((timer) => timer.at));
  }
  /** Jumps to the earliest timer and runs it. */
  fireNext(): void {
    const [id, timer] = [...this.#pending.entries()].sort((a, b) => a[1].at - b[1].at)[0] ?? [];
    if (id === undefined || timer === undefined) throw new Error('no timer pending');
    this.#pending.delete(id);
    this.now = timer.at;
    timer.callback();
  }
}

/** A pool on a simulated clock whose sink records every write and whose log records every line. */
function poolOnClock(random: () => number) {
  const clock = new SimulatedClock();
  const writes: Toolset[] = [];
  const lines: { msg: string }[] = [];
  const log = pino(
    { level: 'debug' },
    { write: (line: string) => void lines.push(JSON.parse(line) as { msg: string }) },
  );
  const pool = new McpPool(
    { put: (_tenant, toolset) => Promise.resolve(writes.push(toolset)), delete: () => Promise.resolve() },
    log,
    { reconnect: { baseMs: 1000, capMs: 30_000 }, timers: clock, random },
  );
  const unavailableWrites = () => writes.filter((toolset) => toolset.unavailable !== undefined).length;
  const logged = (message: string) => lines.filter((line) => line.msg === message).length;
  return { clock, pool, writes, unavailableWrites, logged };
}

describe('McpPool reconnects (issue #20)', () => {
  const pools: McpPool[] = [];
  afterEach(async () => {
    for (const pool of pools.splice(0)) await pool.close();
  });

  it('makes exactly the backoff schedule of attempts against a server that stays down for a simulated minute', async () => {
    // The jitter that takes the most off: the most attempts a minute can hold.
    const { clock, pool, unavailableWrites, logged } = poolOnClock(() => 0);
    pools.push(pool);
    const server = countedServer();
    await pool.attach('acme', { name: 'flaky', transport: server.transport, supports_parallel_tool_calls: false });
    expect(server.starts()).toBe(1);

    server.down();
    await eventually(() => expect(clock.pending).toBe(1));
    let attempts = 0;
    while ((clock.nextDue() ?? Infinity) <= 60_000) {
      const starts = server.starts();
      clock.fireNext();
      attempts += 1;
      // The attempt has run (the server started and died) when the pool has scheduled the next one.
      await eventually(() => {
        expect(server.starts()).toBe(starts + 1);
        expect(clock.pending).toBe(1);
      });
    }
    // Let any stray second schedule land before counting.
    await new Promise((resolve) => setTimeout(resolve, 200));

    // 0.5 s, 1.5, 3.5, 7.5, 15.5, 30.5, 45.5: seven attempts; the eighth is due at 60.5 s.
    const expected = Array.from({ length: 8 }, (_, attempt) =>
      backoffDelay(attempt, { baseMs: 1000, capMs: 30_000 }, () => 0),
    );
    expect(clock.scheduled).toEqual(expected);
    expect(attempts).toBe(7);
    expect(server.starts()).toBe(1 + 7);
    expect(clock.mostPending).toBe(1);
    expect(logged('MCP server disconnected; reconnecting')).toBe(1);
    expect(logged('MCP reconnect attempt failed')).toBe(7);
    expect(unavailableWrites()).toBe(1);
  }, 30_000);

  it('writes one unavailable toolset per outage, and the tools again when the server is back', async () => {
    const { clock, pool, writes, unavailableWrites, logged } = poolOnClock(() => 1);
    pools.push(pool);
    const server = countedServer();
    await pool.attach('acme', { name: 'flaky', transport: server.transport, supports_parallel_tool_calls: false });

    for (const outage of [1, 2]) {
      server.down();
      await eventually(() => expect(clock.pending).toBe(1));
      for (let attempt = 0; attempt < 2; attempt += 1) {
        const starts = server.starts();
        clock.fireNext();
        await eventually(() => {
          expect(server.starts()).toBe(starts + 1);
          expect(clock.pending).toBe(1);
        });
      }
      expect(unavailableWrites()).toBe(outage);
      server.up();
      clock.fireNext();
      await eventually(() => expect(writes.at(-1)?.unavailable).toBeUndefined());
      expect(writes.at(-1)?.tools).toHaveLength(1);
      expect(pool.servers()).toEqual([{ tenant: 'acme', server: 'flaky', connected: true }]);
    }
    expect(unavailableWrites()).toBe(2);
    expect(logged('MCP server disconnected; reconnecting')).toBe(2);
    expect(logged('MCP server reconnected')).toBe(2);
    // The backoff starts over after a reconnect: 1 s, 2 s, 4 s in each outage.
    expect(clock.scheduled).toEqual([1000, 2000, 4000, 1000, 2000, 4000]);
  }, 30_000);

  it('runs no retry after the server is detached', async () => {
    const { clock, pool } = poolOnClock(() => 0);
    pools.push(pool);
    const server = countedServer();
    await pool.attach('acme', { name: 'flaky', transport: server.transport, supports_parallel_tool_calls: false });
    server.down();
    await eventually(() => expect(clock.pending).toBe(1));
    await pool.detach('acme', 'flaky');
    expect(clock.pending).toBe(0);
  });
});

describe('the registry during an outage (real daemon, real time, base 100 ms, cap 400 ms)', () => {
  const fixture = daemonFixture({
    mcp: { allowedCommands: [NODE], reconnect: { baseMs: 100, capMs: 400 } },
  });
  beforeAll(() => fixture.start());
  afterAll(() => fixture.stop());

  it('sees one unavailable write per outage, however many attempts it holds', async () => {
    const tenant = tenantId('outage');
    const client = await fixture.client(tenant);
    const server = countedServer();
    await client.call(ENDPOINTS.mcpAttach, { name: 'flaky', transport: server.transport });
    const nc = await fixture.connection();
    const kv = await nc.jetstream().views.kv(fixture.config.namespace.bucket);
    const key = `${tenant}.${Buffer.from('mcp-flaky').toString('base64url')}`;
    const values: Toolset[] = [];
    const watch = await kv.watch({ key, include: KvWatchInclude.UpdatesOnly });
    void (async () => {
      for await (const entry of watch) values.push(JSONCodec<Toolset>().decode(entry.value));
    })();
    const unavailable = () => values.filter((toolset) => toolset.unavailable !== undefined).length;

    for (const outage of [1, 2]) {
      const starts = server.starts();
      server.down();
      await eventually(() => expect(unavailable()).toBe(outage));
      await new Promise((resolve) => setTimeout(resolve, 2500));
      // 2.5 s of retries, no sooner than 50, 100, 200, 200… ms apart: at most 12 attempts.
      const attempts = server.starts() - starts;
      expect(attempts).toBeGreaterThanOrEqual(3);
      expect(attempts).toBeLessThanOrEqual(12);
      expect(unavailable()).toBe(outage);
      server.up();
      await eventually(() => expect(values.at(-1)?.unavailable).toBeUndefined());
    }
    watch.stop();
    expect(unavailable()).toBe(2);
  }, 30_000);
});
