import { describe, expect, it } from 'vitest';
import { buildSessionTools, defaultToolSearchConfig } from '@toolsearch/catalog';
import { tool, toolset } from '@toolsearch/testing';
import { EngineStore, engineBuiltTools, searchEngineFor } from './engine-cache';

const catalog = (description: string, order: 'forward' | 'reverse' = 'forward') => {
  const tools = [tool('cache_probe_read', `Read ${description}.`), tool('cache_probe_write', `Write ${description}.`)];
  return buildSessionTools(
    [toolset('cache-probe', order === 'forward' ? tools : [...tools].reverse())],
    defaultToolSearchConfig(),
  ).deferred;
};

describe('searchEngineFor', () => {
  it('builds one engine per content, whatever array holds it', () => {
    const before = engineBuiltTools();
    const first = searchEngineFor(catalog('the probe files'));
    const again = searchEngineFor(catalog('the probe files'));
    expect(again).toBe(first);
    expect(engineBuiltTools() - before).toBe(2);
    // Any change to what the index reads is another engine.
    expect(searchEngineFor(catalog('the probe records'))).not.toBe(first);
    expect(engineBuiltTools() - before).toBe(4);
  });

  it('keeps positions: the same tools in another order are another engine', () => {
    const forward = searchEngineFor(catalog('ordered probes'));
    const reverse = searchEngineFor(catalog('ordered probes', 'reverse'));
    expect(reverse).not.toBe(forward);
    expect(reverse.search('read ordered probes', 1)[0]?.index).toBe(1);
    expect(forward.search('read ordered probes', 1)[0]?.index).toBe(0);
  });
});

describe('EngineStore', () => {
  // Each engine of these two-tool catalogs weighs 2 tools + 8 of overhead.
  it('bounds the tools its engines index, the owner indexing the most giving way', () => {
    const built: [string, number][] = [];
    const store = new EngineStore({ maxTools: 30, onBuild: (owner, tools) => built.push([owner, tools]) });
    const quiet = store.engineFor(catalog('the quiet store probe'), 'quiet');
    for (let at = 0; at < 10; at += 1) store.engineFor(catalog(`store flood probe ${at}`), 'flood');
    expect(store.stats.tools).toBeLessThanOrEqual(30);
    expect(store.toolsHeldBy('quiet')).toBe(10);
    expect(store.toolsHeldBy('flood')).toBe(20);
    // The quiet owner's engine is still held: asked again, nothing is built.
    expect(store.engineFor(catalog('the quiet store probe'), 'quiet')).toBe(quiet);
    expect(built.filter(([owner]) => owner === 'quiet')).toEqual([['quiet', 2]]);
    expect(built.filter(([owner]) => owner === 'flood')).toHaveLength(10);
    expect(store.stats.builds).toBe(11);
  });

  it("keeps each owner's newest engine: owners over the bound together do not take turns rebuilding", () => {
    const store = new EngineStore({ maxTools: 10 });
    const owners = ['one', 'two', 'three'];
    for (const owner of owners) store.engineFor(catalog(`the ${owner} owner's store probe`), owner);
    for (let round = 0; round < 3; round += 1)
      for (const owner of owners) store.engineFor(catalog(`the ${owner} owner's store probe`), owner);
    expect(store.stats.builds).toBe(3);
    expect(store.stats.tools).toBe(30);
  });

  it('takes back an engine it gave up while something still holds it, without building it again', () => {
    const built: string[] = [];
    const store = new EngineStore({ maxTools: 10, onBuild: (owner) => built.push(owner) });
    const held = store.engineFor(catalog('a held store probe'), 'a');
    store.engineFor(catalog('another store probe'), 'a');
    expect(store.stats.engines).toBe(1);
    // Given up by the store, but `held` keeps it alive: the same engine comes back, unbuilt.
    expect(store.engineFor(catalog('a held store probe'), 'a')).toBe(held);
    expect(built).toEqual(['a', 'a']);
  });
});
