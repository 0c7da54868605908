import { describe, expect, it } from 'vitest';
import { ToolsetSchema, type Toolset } from '@toolsearch/catalog';
import { KnownServers } from './known-servers';

const toolset = (id: string, label?: string): Toolset =>
  ToolsetSchema.parse({ id, kind: 'mcp', ...(label !== undefined ? { label } : {}), tools: [{ name: 't' }] });
const current = (...toolsets: Toolset[]) => new Map(toolsets.map((item) => [item.id, { toolset: item }]));
const has = (labels: Pick<ReadonlySet<string>, 'has'>, names: string[]) => names.map((name) => labels.has(name));

describe('KnownServers', () => {
  it('gives a kept list extended by new toolsets the same key as one counted afresh', () => {
    const [a, b, c] = [toolset('mcp-a'), toolset('mcp-b'), toolset('mcp-c', 'Gamma')];
    const kept = new KnownServers();
    kept.of('t', a, current());
    kept.of('t', b, current(a));
    const extended = kept.of('t', c, current(a, b));
    const fresh = new KnownServers().of('t', c, current(a, b));
    expect(extended.key).toBe(fresh.key);
    expect(has(extended.labels, ['a', 'b', 'gamma', 'mcp-c', 'd'])).toEqual([true, true, true, false, false]);
    expect(extended.others).toEqual([a, b]);
  });

  it('changes the key when a stored toolset is replaced by one with another label', () => {
    const [a, b, c] = [toolset('mcp-a'), toolset('mcp-b'), toolset('mcp-c')];
    const servers = new KnownServers();
    const before = servers.of('t', c, current(a, b));
    const renamed = toolset('mcp-b', 'Beta');
    const after = servers.of('t', c, current(a, renamed));
    expect(after.key).not.toBe(before.key);
    expect(has(after.labels, ['b', 'beta'])).toEqual([false, true]);
  });

  it('leaves out the stored version of the toolset being vetted, and names the tenant in the key', () => {
    const [a, b] = [toolset('mcp-a'), toolset('mcp-b', 'Old')];
    const servers = new KnownServers();
    const put = servers.of('t', toolset('mcp-b', 'New'), current(a, b));
    expect(has(put.labels, ['a', 'new', 'old'])).toEqual([true, true, false]);
    expect(put.others).toEqual([a]);
    expect(servers.of('u', toolset('mcp-b', 'New'), current(a, b)).key).not.toBe(put.key);
  });

  it('does not take one label holding a comma for two labels', () => {
    const servers = new KnownServers();
    const one = servers.of('t', toolset('mcp-z'), current(toolset('mcp-x', 'a,b')));
    const two = servers.of('t', toolset('mcp-z'), current(toolset('mcp-x', 'a'), toolset('mcp-y', 'b')));
    expect(one.key).not.toBe(two.key);
  });
});
