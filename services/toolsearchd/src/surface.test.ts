import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import type { Toolset } from '@toolsearch/catalog';
import { tool, toolset } from '@toolsearch/testing';
import { assemblyWeight, engineBuildWeight } from './request-weights';
import type { ToolsetRegistry } from './registry.adapter';
import { sessionDescriptor } from './session-fixture';
import { SurfaceBuilder } from './surface';

/** The two things a surface reads of the registry: a tenant's toolsets and their generation. */
function registryOf(toolsets: readonly Toolset[]): ToolsetRegistry {
  const entries = new Map(toolsets.map((entry) => [entry.id, { toolset: entry, revision: 1 }]));
  return { toolsets: () => entries, generation: () => 1 } as unknown as ToolsetRegistry;
}

describe('SurfaceBuilder', () => {
  // 40 tools under a unique description, so no other test's engine shares this content.
  const tools = Array.from({ length: 40 }, (_, at) => tool(`surface_probe_${at}`, `Probe ${at} of the surface test.`));
  const registry = registryOf([toolset('probe', tools)]);
  const descriptor = (contextLength: number, tenant = 'acme') => ({
    ...sessionDescriptor(`s-${contextLength}-${tenant}`, { tenant, toolsets: ['mcp-probe'] }),
    model: { contextLength },
  });

  it('shares one search engine between surfaces whose catalogs have the same content', () => {
    const builder = new SurfaceBuilder();
    // Small model windows: the 40 tools stay behind the bridge at each size.
    const small = builder.build(descriptor(4_000), registry);
    const large = builder.build(descriptor(4_001), registry);
    const anthropic = builder.build(descriptor(4_002), registry, 'anthropic');
    expect(small.bridge.table.deferred).toHaveLength(40);
    expect(large.assembly).not.toBe(small.assembly);
    expect(large.bridge.table.deferred).not.toBe(small.bridge.table.deferred);
    expect(large.bridge.engine).toBe(small.bridge.engine);
    expect(anthropic.bridge.engine).toBe(small.bridge.engine);
  });

  it('charges the tenant whose request built what the caches did not hold, and nothing on a hit', () => {
    const charged: [string, number][] = [];
    const builder = new SurfaceBuilder({}, { charge: (tenant, weight) => charged.push([tenant, weight]) });
    const total = (tenant: string) => charged.filter(([who]) => who === tenant).reduce((sum, [, w]) => sum + w, 0);
    const others = registryOf([toolset('probe', [...tools, tool('surface_probe_extra', 'One more probe.')])]);
    const first = builder.forRequest(descriptor(4_000, 'first'), others);
    const size = first.assembly.table.byName.size;
    expect(first.bridge.table.deferred).toHaveLength(41);
    // A new catalog: its assembly and its engine.
    expect(total('first')).toBe(assemblyWeight(size) + engineBuildWeight(first.bridge.engine.size));
    // Another model size: a new assembly, the same engine.
    builder.forRequest(descriptor(4_001, 'second'), others);
    expect(total('second')).toBe(assemblyWeight(size));
    // Both again: answered from the caches, free.
    const before = charged.length;
    builder.forRequest(descriptor(4_000, 'first'), others);
    builder.forRequest(descriptor(4_001, 'second'), others);
    expect(charged).toHaveLength(before);
    // The daemon's own re-assembly (the fan-out): the assembly is not charged...
    builder.build(descriptor(4_002, 'third'), others);
    expect(total('third')).toBe(0);
    // ...but a new engine (new content: a toolset changed) is, to the session's tenant.
    const changed = registryOf([toolset('probe', [...tools, tool('surface_probe_changed', 'Changed probe.')])]);
    const rebuilt = builder.build(descriptor(4_003, 'fourth'), changed);
    expect(total('fourth')).toBe(engineBuildWeight(rebuilt.bridge.engine.size));
  });

  it("keeps a tenant's cached surfaces while another tenant fills the caches with new settings", () => {
    const charged: [string, number][] = [];
    const builder = new SurfaceBuilder({}, { charge: (tenant, weight) => charged.push([tenant, weight]) });
    builder.forRequest(descriptor(4_000, 'quiet'), registry);
    // Another tenant opens sessions with one new model window after another, past the caches' 4,096.
    for (let at = 0; at < 4_200; at += 1) builder.forRequest(descriptor(10_000 + at, 'churn'), registry);
    const before = charged.length;
    // The quiet tenant's surface (a new session with the same settings) is still cached: free.
    builder.forRequest(descriptor(4_000, 'quiet'), registry);
    expect(charged.slice(before)).toEqual([]);
  }, 60_000);

  it("bounds the memory of a tenant's many distinct grants, and keeps another tenant's engine", async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const many = Array.from({ length: 300 }, (_, at) =>
      tool(`bound_probe_${at}`, `Bound probe ${at} of the memory test.`),
    );
    const wide = registryOf([toolset('bound', many)]);
    const charged: [string, number][] = [];
    const builder = new SurfaceBuilder(
      {},
      {
        charge: (tenant, weight) => charged.push([tenant, weight]),
        limits: { maxIndexedTools: 1_000, maxAssembledTools: 2_000 },
      },
    );
    // Each grant leaves out one tool: a catalog of 299 tools no other grant has, so its own engine.
    const granted = (id: string, tenant: string, left: number) => ({
      ...sessionDescriptor(id, { tenant, toolsets: ['mcp-bound'] }),
      grant: { toolsets: ['mcp-bound'], deny: [`bound_probe_${left}`] },
      model: { contextLength: 4_000 },
    });
    const quiet = granted('quiet', 'quiet', 299);
    expect(builder.forRequest(quiet, wide).bridge.engine.search('bound probe 7', 1)).toHaveLength(1);
    const quietCharges = charged.length;
    // The sessions stay open (their descriptors held, as the session actors hold them)...
    const sessions = Array.from({ length: 40 }, (_, at) => granted(`flood-${at}`, 'flood', at));
    const engines: WeakRef<object>[] = [];
    for (const session of sessions) engines.push(new WeakRef(builder.forRequest(session, wide).bridge.engine));
    // ...yet what the replica keeps for them is within the bounds,
    expect(builder.held.indexedTools).toBeLessThanOrEqual(1_000);
    expect(builder.held.assembledTools).toBeLessThanOrEqual(2_000);
    // the quiet tenant's engine and surface were not given up for the flood (nothing charged again),
    expect(builder.forRequest(quiet, wide).bridge.engine.search('bound probe 8', 1)).toHaveLength(1);
    expect(charged.slice(quietCharges).filter(([tenant]) => tenant === 'quiet')).toEqual([]);
    // and nothing else holds the engines the store gave up: open sessions do not keep them alive.
    await new Promise((resolve) => setTimeout(resolve, 0));
    gc();
    const alive = engines.filter((engine) => engine.deref() !== undefined).length;
    expect(alive).toBeLessThanOrEqual(3);
    expect(sessions).toHaveLength(40);
    // A flood session searched again gets its engine back (rebuilt, charged to its own tenant).
    const before = charged.length;
    expect(
      builder.forRequest(granted('flood-0', 'flood', 0), wide).bridge.engine.search('bound probe 9', 1),
    ).toHaveLength(1);
    expect(charged.slice(before)).toContainEqual(['flood', engineBuildWeight(299)]);
    expect(charged.slice(before).every(([tenant]) => tenant === 'flood')).toBe(true);
  }, 60_000);

  it("bounds the parsed configs by their bytes, a tenant's large ones evicting only its own", () => {
    const builder = new SurfaceBuilder();
    const quiet = builder.config({ search_default_limit: 3 }, 'quiet');
    // 160 distinct configs of some 256 KB each (40 MB, past the cache's 32 MB) from one tenant.
    const padding = 'p'.repeat(256 * 1024);
    const first = builder.config({ padding, at: 0 }, 'large');
    for (let at = 1; at < 160; at += 1) builder.config({ padding, at }, 'large');
    // The quiet tenant's config is still the cached object; the large tenant's first was given up.
    expect(builder.config({ search_default_limit: 3 }, 'quiet')).toBe(quiet);
    expect(builder.config({ padding, at: 0 }, 'large')).not.toBe(first);
  }, 60_000);
});
