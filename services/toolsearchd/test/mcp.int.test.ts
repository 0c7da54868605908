import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS, type TierEvent } from '@toolsearch/proto';
import { collect, daemonFixture, startDaemon, tenantId } from './harness';

const FIXTURE = fileURLToPath(new URL('./fixtures/file-driven-mcp-server.mjs', import.meta.url));
const EVERYTHING = fileURLToPath(
  new URL('../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url),
);
const NODE = process.execPath;

function toolsFile(tools: { name: string; description: string }[]): string {
  const path = join(mkdtempSync(join(tmpdir(), 'toolsearch-mcp-')), 'tools.json');
  writeFileSync(
    path,
    JSON.stringify(tools.map((tool) => ({ ...tool, inputSchema: { type: 'object', properties: {} } }))),
  );
  return path;
}

describe('MCP servers attached per tenant', () => {
  // The HTTP servers these tests attach are on 127.0.0.1, which the outbound policy refuses by default.
  const fixture = daemonFixture({ mcp: { allowedCommands: [NODE], outbound: { allowPrivate: true } } });
  const client = (tenant: string) => fixture.client(tenant);

  beforeAll(() => fixture.start());
  afterAll(() => fixture.stop());

  it('attaches the real server-everything: tier event with its tools, search and describe, detach drops them', async () => {
    const acme = await client(tenantId('mcp'));
    const { session } = await acme.openSession({
      grant: { toolsets: ['mcp-everything'] },
      model: { contextLength: 128_000 },
    });
    const events = collect<TierEvent>(1, 15_000);
    const sub = acme.onTier(session.id, events.push);
    const attached = await acme.call(ENDPOINTS.mcpAttach, {
      name: 'everything',
      transport: { type: 'stdio', command: NODE, args: [EVERYTHING, 'stdio'] },
    });
    expect(attached).toMatchObject({ toolset: 'mcp-everything', tools: 13 });
    expect((await events.done)[0]).toMatchObject({ tier: 1, deferred_count: 13 });
    sub.unsubscribe();
    const found = (await acme.search(session.id, ['echo a message'])).result as { results: { matches: string[] }[] };
    expect(found.results[0]?.matches[0]).toBe('everything__echo');
    const described = (await acme.describe(session.id, ['everything__echo'])).result as {
      tools: Record<string, { parameters: { required: string[] } }>;
    };
    expect(described.tools['everything__echo']?.parameters.required).toEqual(['message']);

    const gone = collect<TierEvent>(1, 10_000);
    const sub2 = acme.onTier(session.id, gone.push);
    expect(await acme.call(ENDPOINTS.mcpDetach, { name: 'everything' })).toMatchObject({ detached: true });
    expect((await gone.done)[0]).toMatchObject({ tier: 0, deferred_count: 0 });
    sub2.unsubscribe();
  }, 30_000);

  it('follows tools/list_changed (with pagination) into the registry and the session', async () => {
    const acme = await client(tenantId('mcp'));
    const file = toolsFile([
      { name: 'alpha', description: 'First tool.' },
      { name: 'beta', description: 'Second tool.' },
      { name: 'gamma', description: 'Third tool.' },
    ]);
    expect(
      await acme.call(ENDPOINTS.mcpAttach, {
        name: 'live',
        transport: { type: 'stdio', command: NODE, args: [FIXTURE, file] },
      }),
    ).toMatchObject({ tools: 3 });
    const { session } = await acme.openSession({
      grant: { toolsets: ['mcp-live'] },
      model: { contextLength: 128_000 },
    });
    expect(await acme.assemble(session.id)).toMatchObject({ deferred_count: 3 });
    const events = collect<TierEvent>(1, 10_000);
    const sub = acme.onTier(session.id, events.push);
    writeFileSync(
      file,
      JSON.stringify([
        { name: 'alpha', description: 'First tool.', inputSchema: { type: 'object' } },
        { name: 'delta', description: 'A new tool.', inputSchema: { type: 'object' } },
      ]),
    );
    expect((await events.done)[0]).toMatchObject({ deferred_count: 2 });
    sub.unsubscribe();
    const described = (await acme.describe(session.id, ['live__delta', 'live__beta'])).result;
    expect(described).toMatchObject({
      tools: { live__delta: { description: 'A new tool.' } },
      not_found: ['live__beta'],
    });
  }, 30_000);

  it('shows a crashed server as unavailable, reconnects with backoff, and brings its tools back', async () => {
    const acme = await client(tenantId('mcp'));
    const tools = [{ name: 'stable', description: 'A tool that survives restarts.', inputSchema: { type: 'object' } }];
    const file = toolsFile(tools);
    await acme.call(ENDPOINTS.mcpAttach, {
      name: 'flaky',
      transport: { type: 'stdio', command: NODE, args: [FIXTURE, file] },
    });
    const { session } = await acme.openSession({
      grant: { toolsets: ['mcp-flaky'] },
      model: { contextLength: 128_000 },
    });
    const down = collect<TierEvent>(1, 10_000);
    let sub = acme.onTier(session.id, down.push);
    writeFileSync(file, 'EXIT');
    expect((await down.done)[0]).toMatchObject({ deferred_count: 0 });
    sub.unsubscribe();
    const assembled = await acme.assemble(session.id);
    expect(JSON.stringify(assembled.tools)).not.toContain('flaky__stable');
    const search = (await acme.search(session.id, ['stable'])).result as {
      results: { available_sources?: { name: string; unavailable?: string }[] }[];
    };
    expect(search.results[0]?.available_sources).toEqual([
      { name: 'flaky', tool_count: 1, unavailable: 'the server disconnected; reconnecting' },
    ]);
    const up = collect<TierEvent>(1, 15_000);
    sub = acme.onTier(session.id, up.push);
    writeFileSync(file, JSON.stringify(tools));
    expect((await up.done)[0]).toMatchObject({ deferred_count: 1 });
    sub.unsubscribe();
  }, 30_000);

  it('refuses a stdio command the operator did not allow, without echoing secrets', async () => {
    const acme = await client(tenantId('mcp'));
    const attempt = acme.call(ENDPOINTS.mcpAttach, {
      name: 'evil',
      transport: { type: 'stdio', command: '/bin/sh', args: ['-c', 'id'], env: { API_KEY: 'sk-secret-123' } },
    });
    await expect(attempt).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await attempt.catch((error: Error) => expect(error.message).not.toContain('sk-secret-123'));
  });

  it('reports an unreachable server without its secrets', async () => {
    const acme = await client(tenantId('mcp'));
    const attempt = acme.call(ENDPOINTS.mcpAttach, {
      name: 'down',
      transport: { type: 'http', url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer sk-secret-456' } },
    });
    await expect(attempt).rejects.toMatchObject({ code: 'MCP_UNREACHABLE' });
    await attempt.catch((error: Error) => expect(error.message).not.toContain('sk-secret-456'));
  });

  it("keeps one tenant's MCP server out of another tenant's sessions", async () => {
    const a = await client(tenantId('a'));
    const b = await client(tenantId('b'));
    const file = toolsFile([{ name: 'private_tool', description: 'Only for tenant a.' }]);
    await a.call(ENDPOINTS.mcpAttach, {
      name: 'shared-name',
      transport: { type: 'stdio', command: NODE, args: [FIXTURE, file] },
    });
    const { session } = await b.openSession({
      grant: { toolsets: ['mcp-shared-name'] },
      model: { contextLength: 128_000 },
    });
    expect(await b.assemble(session.id)).toMatchObject({ deferred_count: 0 });
    expect(((await b.search(session.id, ['private tool'])).result as { total_available: number }).total_available).toBe(
      0,
    );
  }, 20_000);
});

describe('an MCP server held by one replica', () => {
  const fixture = daemonFixture();
  afterAll(() => fixture.stop());

  it('runs its tools for a session served by another replica (over the daemon-only relay)', async () => {
    const holder = await fixture.start();
    const other = await startDaemon(fixture.config);
    try {
      const tenant = tenantId('relay');
      // Attached by the operator on one replica only: the other replica has no connection to it.
      await holder.attachMcp(tenant, {
        name: 'everything',
        transport: { type: 'stdio', command: NODE, args: [EVERYTHING, 'stdio'] },
        supports_parallel_tool_calls: true,
      });
      const acme = await fixture.client(tenant);
      const { session } = await acme.openSession({
        grant: { toolsets: ['mcp-everything'] },
        model: { contextLength: 128_000 },
      });
      const context = await other.turnContext(tenant, session.id);
      const [result] = await other.dispatchService.dispatcher.dispatch(context, [
        {
          id: 'r1',
          name: 'tool_call',
          arguments: { name: 'everything__echo', arguments: { message: 'via the relay' } },
        },
      ]);
      expect(JSON.stringify(result)).toContain('via the relay');
    } finally {
      await other.close();
    }
  }, 30_000);
});
