/**
 * What one tenant's sessions with distinct grants cost a replica in memory, and what they do to
 * another tenant's searches: the daemon's `SurfaceBuilder` in-process over the 6,685-tool union.
 *
 * A quiet tenant has one session over the whole union; a flooding tenant then opens sessions (their
 * descriptors kept, as a replica keeps open sessions) whose grants each leave out one server, so
 * each has a catalog of its own and so a search engine of its own. Printed: the memory after each
 * tenth flood session (heap and array buffers, after a full collection), the tools the bounded
 * caches hold, and the quiet tenant's search latency before and after (and whether its engine had
 * to be rebuilt).
 *
 *   node --expose-gc --import tsx services/toolsearchd/bench/surface-memory.bench.ts [--sessions 40] [--root DIR]
 *
 * `--root` runs another checkout's `SurfaceBuilder` (its `services/toolsearchd/src/surface.ts`) on
 * the same data, for before/after runs alternating on one machine.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Toolset } from '@toolsearch/catalog';
import type { SurfaceBuilder as SurfaceBuilderType } from '../src/surface';
import { sessionDescriptor } from '../src/session-fixture';
import { loadToolsets, publicQueries } from './bench-data';

const { values } = parseArgs({
  options: { sessions: { type: 'string', default: '40' }, root: { type: 'string' } },
});
const root = resolve(values.root ?? resolve(import.meta.dirname, '../../..'));
const { SurfaceBuilder } = (await import(resolve(root, 'services/toolsearchd/src/surface.ts'))) as {
  SurfaceBuilder: typeof SurfaceBuilderType;
};
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with node --expose-gc');

const heapMiB = async () => {
  await new Promise((resolve) => setImmediate(resolve));
  gc();
  gc();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return Math.round(((heapUsed + arrayBuffers) / 2 ** 20) * 10) / 10;
};

const toolsets = loadToolsets();
const registry = {
  toolsets: () => new Map(toolsets.map((toolset: Toolset) => [toolset.id, { toolset, revision: 1 }])),
  generation: () => 1,
} as never;
const everything = toolsets.map((toolset) => toolset.id);
const session = (id: string, tenant: string, toolsetIds: string[]) => ({
  ...sessionDescriptor(id, { tenant, toolsets: toolsetIds }),
  model: { contextLength: 200_000 },
});

const charged = new Map<string, number>();
const builder = new SurfaceBuilder(
  {},
  { charge: (tenant: string, w: number) => charged.set(tenant, (charged.get(tenant) ?? 0) + w) },
);
const queries = publicQueries().slice(0, 300);

function quietSearch(): { p50_ms: number; p99_ms: number } {
  const times: number[] = [];
  for (const query of queries) {
    const start = process.hrtime.bigint();
    builder.forRequest(quiet, registry).bridge.engine.search(query, 5);
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) =>
    Math.round((times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0) * 1000) / 1000;
  return { p50_ms: at(0.5), p99_ms: at(0.99) };
}

const baseline = await heapMiB();
const quiet = session('quiet', 'quiet', everything);
builder.forRequest(quiet, registry);
quietSearch();
const quietBefore = quietSearch();
const quietCharged = charged.get('quiet') ?? 0;
const heldSessions: unknown[] = [];
const heap: number[] = [];
const count = Number(values.sessions);
const started = performance.now();
for (let at = 0; at < count; at += 1) {
  const left = toolsets[at % toolsets.length]?.id;
  const descriptor = session(
    `flood-${at}`,
    'flood',
    everything.filter((id) => id !== left),
  );
  heldSessions.push(descriptor);
  builder.forRequest(descriptor, registry).bridge.engine.search('send a message', 5);
  // Each request is a job of its own, as in the daemon: V8 keeps every object a job made a weak
  // reference to (or read through one) alive until the job ends.
  await new Promise((resolve) => setImmediate(resolve));
  if ((at + 1) % 10 === 0) heap.push(await heapMiB());
}
const floodMs = performance.now() - started;
const quietAfter = quietSearch();
const held = (builder as { held?: { indexedTools: number; assembledTools: number; engines: number } }).held;
console.log(
  JSON.stringify(
    {
      root,
      tools: toolsets.reduce((sum, toolset) => sum + toolset.tools.length, 0),
      flood_sessions: heldSessions.length,
      heap_and_buffers_baseline_mib: baseline,
      heap_and_buffers_after_every_10_flood_sessions_mib: heap,
      flood_ms_per_session: Math.round(floodMs / count),
      held: held ?? 'not reported by this code',
      quiet_search_before: quietBefore,
      quiet_search_after: quietAfter,
      quiet_charged_again_during_flood: (charged.get('quiet') ?? 0) - quietCharged,
    },
    null,
    2,
  ),
);
