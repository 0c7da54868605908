import { describe, expect, it } from 'vitest';
import { buildSessionTools, defaultToolSearchConfig } from '@toolsearch/catalog';
import { tool, toolset } from '@toolsearch/testing';
import { engineBuiltTools, searchEngineFor } from './engine-cache';

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
