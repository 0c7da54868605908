import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, clientFor, daemonProcess, exited, tenantId, testConfig } from './harness';

describe('toolsearchd processes', () => {
  const config = testConfig();
  const configPath = join(mkdtempSync(join(tmpdir(), 'toolsearchd-proc-')), 'config.json');
  writeFileSync(configPath, JSON.stringify({ ...config, log: { level: 'info' } }));
  const children: ChildProcess[] = [];
  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await Promise.all(children.map(exited));
    await cleanup(config);
  });

  it('two processes serve one session alternately; after kill -9 and a restart, nothing is lost', async () => {
    const first = await daemonProcess(configPath);
    const second = await daemonProcess(configPath);
    children.push(first, second);
    const { nc, client } = await clientFor(tenantId('proc'));
    try {
      await client.putToolset({
        id: 'mcp-github',
        kind: 'mcp',
        label: 'github',
        tools: [
          { name: 'create_issue', description: 'Open an issue.' },
          { name: 'list_repos', description: 'List repositories.' },
        ],
      });
      const { session } = await client.openSession({
        grant: { toolsets: ['mcp-github'] },
        model: { contextLength: 128_000 },
      });
      const hashes = new Set<string>();
      for (let i = 0; i < 16; i += 1) hashes.add((await client.assemble(session.id)).hash);
      expect(hashes.size).toBe(1);

      first.kill('SIGKILL');
      await exited(first);
      for (let i = 0; i < 8; i += 1) expect((await client.assemble(session.id)).hash).toBe([...hashes][0]);

      second.kill('SIGKILL');
      await exited(second);
      const third = await daemonProcess(configPath);
      children.push(third);
      expect((await client.assemble(session.id)).hash).toBe([...hashes][0]);
      const found = (await client.search(session.id, ['open an issue'])).result as { results: { matches: string[] }[] };
      expect(found.results[0]?.matches[0]).toBe('github__create_issue');
    } finally {
      await nc.close();
    }
  }, 90_000);
});
