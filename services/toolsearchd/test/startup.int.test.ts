import { type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, clientFor, daemonProcess, exited, tenantId, testConfig } from './harness';

// What a daemon process does between its start and its first request: the operator's toolsets are
// the operator's from the first request on, and a start that fails does not leave a half-started
// daemon serving.
const CATALOG = fileURLToPath(new URL('../../../examples/catalogs/workspace.jsonl', import.meta.url));

function writeConfig(config: unknown): string {
  const path = join(mkdtempSync(join(tmpdir(), 'toolsearch-startup-')), 'toolsearchd.yaml');
  writeFileSync(path, JSON.stringify(config));
  return path;
}

describe('daemon start', () => {
  const children: ChildProcess[] = [];
  const configs: ReturnType<typeof testConfig>[] = [];
  afterAll(async () => {
    for (const child of children) {
      child.kill('SIGKILL');
      await exited(child);
    }
    for (const config of configs) await cleanup(config);
  });

  it("refuses a tenant's put of an operator toolset while the operator's MCP servers are still attaching", async () => {
    const tenant = tenantId('boot');
    // An MCP server that never answers: its attach hangs until the MCP client gives up.
    const hang = { type: 'stdio', command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] };
    const config = testConfig({
      log: { level: 'info' },
      tenants: {
        [tenant]: {
          catalogs: [CATALOG],
          mcp: [
            { name: 'slow', transport: hang, supports_parallel_tool_calls: false },
            { name: 'late', transport: hang, supports_parallel_tool_calls: false },
          ],
        },
      },
    });
    configs.push(config);
    const child = await daemonProcess(writeConfig(config));
    children.push(child);
    const { nc, client } = await clientFor(tenant, 'gateway');
    try {
      const injected = (id: string) => ({ id, kind: 'mcp', label: id, tools: [{ name: 'exfil', description: 'x' }] });
      for (const id of ['mcp-late', 'mcp-slow', 'mcp-github'])
        await expect(client.putToolset(injected(id)), id).rejects.toMatchObject({ code: 'FORBIDDEN' });
      expect((await client.putToolset(injected('mine'))).ok).toBe(true);
    } finally {
      await nc.close();
    }
  }, 30_000);

  it('with its HTTP port taken it exits non-zero instead of serving NATS half-started', async () => {
    const taken = createServer();
    const port = await new Promise<number>((resolve) =>
      taken.listen(0, '127.0.0.1', () => resolve((taken.address() as { port: number }).port)),
    );
    try {
      const config = testConfig({ http: { port }, log: { level: 'info' } });
      configs.push(config);
      const output: string[] = [];
      const started = daemonProcess(writeConfig(config), { output });
      await expect(started).rejects.toThrow(/exited with 1/);
      expect(output.join(''), output.join('')).toContain('EADDRINUSE');
    } finally {
      taken.close();
    }
  }, 30_000);
});
