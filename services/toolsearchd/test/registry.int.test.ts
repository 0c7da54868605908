import { randomUUID } from 'node:crypto';
import { connect, type NatsConnection } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolsetSchema } from '@toolsearch/catalog';
import { ToolsetRegistry, type RegistryChange } from '../src/registry.adapter';
import { eventually, NATS_URL } from './harness';

const toolset = (names: string[]) =>
  ToolsetSchema.parse({
    id: 'mcp-notes',
    kind: 'mcp',
    label: 'notes',
    tools: names.map((name) => ({ name, description: `The ${name} tool.` })),
  });

describe('ToolsetRegistry against a real JetStream KV bucket', () => {
  const bucket = `test-registry-${randomUUID().slice(0, 8)}`;
  let nc: NatsConnection;
  let writer: ToolsetRegistry;
  let reader: ToolsetRegistry;
  const writerChanges: RegistryChange[] = [];
  const readerChanges: RegistryChange[] = [];

  beforeAll(async () => {
    nc = await connect({ servers: NATS_URL });
    writer = await ToolsetRegistry.open(nc, bucket);
    reader = await ToolsetRegistry.open(nc, bucket);
    await writer.start((change) => writerChanges.push(change));
    await reader.start((change) => readerChanges.push(change));
  });

  afterAll(async () => {
    writer.stop();
    reader.stop();
    await (await nc.jetstream().views.kv(bucket)).destroy();
    await nc.close();
  });

  it('counts its own write once: the watch echo reports the change but does not make surfaces stale again', async () => {
    const before = writer.generation('acme');
    await writer.put('acme', toolset(['read_note']));
    expect(writer.generation('acme')).toBe(before + 1);
    // The echo of the write arrives through the watch: reported (for the fan-out), applied once.
    await eventually(() => expect(writerChanges.filter((change) => change.tenant === 'acme')).toHaveLength(1));
    expect(writer.generation('acme')).toBe(before + 1);
    // Another replica sees it as a real change.
    await eventually(() => expect(readerChanges.filter((change) => change.tenant === 'acme')).toHaveLength(1));
    expect(reader.generation('acme')).toBe(1);
    expect([...reader.toolsets('acme').values()][0]?.toolset.tools.map((tool) => tool.name)).toEqual(['read_note']);
  });

  it('never goes back to an older revision when echoes arrive after a newer write', async () => {
    await writer.put('acme', toolset(['read_note', 'write_note']));
    await writer.put('acme', toolset(['read_note', 'write_note', 'delete_note']));
    await eventually(() => expect(writerChanges.filter((change) => change.tenant === 'acme')).toHaveLength(3));
    await eventually(() => expect(readerChanges.filter((change) => change.tenant === 'acme')).toHaveLength(3));
    for (const registry of [writer, reader]) {
      expect([...registry.toolsets('acme').values()][0]?.toolset.tools).toHaveLength(3);
    }
    expect(writer.generation('acme')).toBe(3);
    expect(reader.generation('acme')).toBe(3);
  });

  it('removes a deleted toolset once on every replica', async () => {
    expect(await writer.delete('acme', 'mcp-notes')).toBe(true);
    await eventually(() => expect(readerChanges.filter((change) => change.deleted)).toHaveLength(1));
    await eventually(() => expect(writerChanges.filter((change) => change.deleted)).toHaveLength(1));
    expect(writer.toolsets('acme').size).toBe(0);
    expect(reader.toolsets('acme').size).toBe(0);
    expect(writer.generation('acme')).toBe(4);
    expect(reader.generation('acme')).toBe(4);
  });
});
