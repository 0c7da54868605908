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
    const others = registryOf([toolset('probe', [...tools, tool('surface_probe_extra', 'One more probe.')])]);
    const first = builder.forRequest(descriptor(4_000, 'first'), others);
    const size = first.assembly.table.byName.size;
    expect(first.bridge.table.deferred).toHaveLength(41);
    // A new catalog: its assembly and its engine.
    expect(charged).toEqual([['first', assemblyWeight(size) + engineBuildWeight(first.bridge.engine.size)]]);
    // Another model size: a new assembly, the same engine.
    builder.forRequest(descriptor(4_001, 'second'), others);
    expect(charged[1]).toEqual(['second', assemblyWeight(size)]);
    // Both again: answered from the caches, free.
    builder.forRequest(descriptor(4_000, 'first'), others);
    builder.forRequest(descriptor(4_001, 'second'), others);
    expect(charged).toHaveLength(2);
    // The daemon's own re-assembly (the fan-out): the assembly is not charged...
    builder.build(descriptor(4_002, 'third'), others);
    expect(charged).toHaveLength(2);
    // ...but a new engine (new content: a toolset changed) is, to the session's tenant.
    const changed = registryOf([toolset('probe', [...tools, tool('surface_probe_changed', 'Changed probe.')])]);
    const rebuilt = builder.build(descriptor(4_003, 'fourth'), changed);
    expect(charged[2]).toEqual(['fourth', engineBuildWeight(rebuilt.bridge.engine.size)]);
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
});
