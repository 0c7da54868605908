import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolsearchClient } from '@toolsearch/client';
import type { Daemon } from '../src/daemon';
import { daemonFixture, eventually, tenantId } from './harness';

const run = promisify(execFile);
const moduleFile = (path: string) => fileURLToPath(new URL(`../../../node_modules/${path}`, import.meta.url));
const MEMORY = moduleFile('@modelcontextprotocol/server-memory/dist/index.js');
const INSPECTOR = moduleFile('@modelcontextprotocol/inspector-cli/build/index.js');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const TENANT = tenantId('door');
const KEYED = tenantId('keyed');
const API_KEY = 'tsk_front_door_test_key_0123456789';

/** An MCP SDK client on the daemon's /mcp with a bearer token. */
async function mcpClient(
  daemon: Daemon,
  bearer: string,
): Promise<{ mcp: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(`${daemon.httpAddress}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${bearer}` } },
  });
  const mcp = new Client({ name: 'front-door-test', version: '1.0.0' });
  await mcp.connect(transport);
  return { mcp, transport };
}

function text(result: CallToolResult): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
}

/** Waits until `check()` holds (polling), or fails after `ms`. */
const until = (check: () => boolean, ms = 8000) =>
  eventually(() => {
    if (!check()) throw new Error('condition not reached in time');
  }, ms);

describe('the MCP endpoint (/mcp)', () => {
  const fixture = daemonFixture({
    // A held call keeps its request open this long (short here: one test lets it pass undecided).
    http: { port: 0, heldCallWaitMs: 4000 },
    tenants: {
      [KEYED]: {
        apiKeys: [
          {
            name: 'ci',
            sha256: createHash('sha256').update(API_KEY).digest('hex'),
            grant: { toolsets: ['mcp-memory'] },
            model: { contextLength: 128_000 },
          },
        ],
      },
    },
  });
  const memoryDir = mkdtempSync(join(tmpdir(), 'toolsearch-door-'));
  const memory = (file: string) => ({
    name: 'memory',
    transport: {
      type: 'stdio' as const,
      command: process.execPath,
      args: [MEMORY],
      env: { MEMORY_FILE_PATH: join(memoryDir, file) },
    },
    supports_parallel_tool_calls: true,
  });
  let daemon: Daemon;
  let client: ToolsearchClient;
  let session: string;
  let token: string;
  const opened: Client[] = [];

  beforeAll(async () => {
    daemon = await fixture.start();
    client = await fixture.client(TENANT);
    await daemon.attachMcp(TENANT, memory('door.jsonl'));
    await daemon.attachMcp(KEYED, memory('keyed.jsonl'));
    const reply = await client.openSession({
      // mcp-later is granted before it exists: attaching it must change this session's surface.
      grant: { toolsets: ['mcp-memory', 'mcp-later'] },
      model: { contextLength: 128_000 },
      coreTools: [
        { name: 'terminal', description: 'Run a shell command in the gateway.', inputSchema: { type: 'object' } },
      ],
    });
    session = reply.session.id;
    token = reply.token;
  }, 30_000);

  afterAll(async () => {
    for (const mcp of opened) await mcp.close().catch(() => undefined);
    await fixture.stop();
  });

  it('lists the assembled surface with the bridge, searches, describes and calls a real server through tool_call', async () => {
    const { mcp } = await mcpClient(daemon, token);
    opened.push(mcp);
    const { tools } = await mcp.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['tool_search', 'tool_describe', 'tool_call']));
    // The surface is the session's assembly in MCP form, minus core tools (they run in the gateway).
    const assembled = await client.assemble(session, 'mcp');
    const expected = assembled.tools.map((tool) => tool['name'] as string).filter((name) => name !== 'terminal');
    expect(names).toEqual(expected);
    expect(assembled.tools.map((tool) => tool['name'])).toContain('terminal');
    expect(names).not.toContain('terminal');

    const search = await mcp.callTool({
      name: 'tool_search',
      arguments: { queries: ['create entities in the knowledge graph'] },
    });
    const found = JSON.parse(text(search as CallToolResult)) as { results: { names?: string[] }[]; tools: object };
    const create = Object.keys(found.tools).find((name) => name.endsWith('create_entities'));
    expect(create).toBeDefined();

    const described = await mcp.callTool({ name: 'tool_describe', arguments: { names: [create] } });
    expect(text(described as CallToolResult)).toContain('entities');

    const created = (await mcp.callTool({
      name: 'tool_call',
      arguments: {
        name: create,
        arguments: { entities: [{ name: 'toolsearch', entityType: 'project', observations: ['serves MCP at /mcp'] }] },
      },
    })) as CallToolResult;
    expect(created.isError).toBeFalsy();
    const readGraph = Object.keys(found.tools).find((name) => name.endsWith('read_graph')) ?? 'memory__read_graph';
    const graph = (await mcp.callTool({
      name: 'tool_call',
      arguments: { name: readGraph, arguments: {} },
    })) as CallToolResult;
    expect(graph.isError).toBeFalsy();
    expect(text(graph)).toContain('serves MCP at /mcp');

    // The same dispatcher as NATS: the calls are in the tenant's audit under the real tool names.
    const { records } = await client.recentActivity({ session });
    expect(records.map((record) => record.tool)).toEqual(expect.arrayContaining([create, readGraph]));
    expect(records.map((record) => record.tool)).not.toContain('tool_call');
  });

  it('keeps a held call open until a person decides: the client gets the real result, or the denial', async () => {
    const { mcp } = await mcpClient(daemon, token);
    opened.push(mcp);
    const search = (await mcp.callTool({
      name: 'tool_search',
      arguments: { queries: ['delete entities'] },
    })) as CallToolResult;
    const names = Object.keys((JSON.parse(text(search)) as { tools: object }).tools);
    const remove = names.find((name) => name.endsWith('delete_entities')) ?? '';
    const create = names.find((name) => name.endsWith('create_entities')) ?? 'memory__create_entities';
    await mcp.callTool({
      name: 'tool_call',
      arguments: { name: create, arguments: { entities: [{ name: 'doomed', entityType: 'x', observations: ['o'] }] } },
    });
    // An approver decides while the MCP request is still open; the client hears progress meanwhile.
    const decideFirst = async (decision: 'approve' | 'deny') => {
      const held = await eventually(async () => {
        const { approvals } = await client.listApprovals({ session });
        const found = approvals.find((approval) => approval.state === 'pending');
        if (found === undefined) throw new Error('not held yet');
        return found;
      });
      await client.decide(held.id, { decision, by: 'alice', reason: 'checked', tool: held.tool, digest: held.digest });
    };
    const progress: number[] = [];
    const call = () =>
      mcp.callTool(
        { name: 'tool_call', arguments: { name: remove, arguments: { entityNames: ['doomed'] } } },
        undefined,
        {
          onprogress: (update) => progress.push(update.progress),
          resetTimeoutOnProgress: true,
        },
      ) as Promise<CallToolResult>;
    const [approved] = await Promise.all([call(), decideFirst('approve')]);
    expect(approved.isError).toBeFalsy();
    expect(approved._meta?.['toolsearch/status']).toBeUndefined();
    expect(text(approved)).toMatch(/deleted/i);
    const [denied] = await Promise.all([call(), decideFirst('deny')]);
    expect(denied.isError).toBe(true);
    expect(denied._meta?.['toolsearch/error_code']).toBe('DENIED');
    expect(text(denied)).toContain('checked');
  }, 30_000);

  it('answers a held call that nobody decides within heldCallWaitMs with its approval id', async () => {
    const { mcp } = await mcpClient(daemon, token);
    opened.push(mcp);
    const { tools } = await mcp.listTools();
    const search = (await mcp.callTool({
      name: 'tool_search',
      arguments: { queries: ['delete entities'] },
    })) as CallToolResult;
    const remove = Object.keys((JSON.parse(text(search)) as { tools: object }).tools).find((name) =>
      name.endsWith('delete_entities'),
    );
    expect(remove).toBeDefined();
    expect(tools.length).toBeGreaterThan(0);
    const held = (await mcp.callTool({
      name: 'tool_call',
      arguments: { name: remove, arguments: { entityNames: ['toolsearch'] } },
    })) as CallToolResult;
    const approvalId = held._meta?.['toolsearch/approval_id'];
    expect(held._meta?.['toolsearch/status']).toBe('pending_approval');
    expect(typeof approvalId).toBe('string');
    expect(text(held)).toContain(String(approvalId));
    const { approvals } = await client.listApprovals({ session });
    expect(approvals.map((approval) => approval.id)).toContain(approvalId);
  });

  it('sends list_changed when a granted server attaches, and not for one outside the grant', async () => {
    const { mcp } = await mcpClient(daemon, token);
    opened.push(mcp);
    let changes = 0;
    mcp.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changes += 1;
    });
    const before = (await mcp.listTools()).tools.length;
    // Give the client its notification stream (a GET it opens after initializing).
    await sleep(300);
    await daemon.attachMcp(TENANT, { ...memory('elsewhere.jsonl'), name: 'elsewhere' });
    await sleep(1000);
    expect(changes).toBe(0);
    await daemon.attachMcp(TENANT, { ...memory('later.jsonl'), name: 'later' });
    await until(() => changes === 1);
    const after = await mcp.listTools();
    const search = (await mcp.callTool({
      name: 'tool_search',
      arguments: { queries: ['read graph'] },
    })) as CallToolResult;
    // Both memory servers' read_graph are now reachable; the other server's never are.
    expect(text(search)).toMatch(/later/);
    expect(text(search)).not.toMatch(/elsewhere/);
    expect(after.tools.length).toBeGreaterThanOrEqual(before);
    await sleep(500);
    expect(changes).toBe(1);
  });

  it('refuses missing and unknown tokens, another token on an MCP session, and a closed session', async () => {
    const url = `${daemon.httpAddress}/mcp`;
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    };
    const post = (headers: Record<string, string>, body: unknown = initialize) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify(body),
      });
    const missing = await post({});
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toMatch(/Bearer/);
    expect((await post({ authorization: 'Bearer tst_nope' })).status).toBe(401);
    expect((await post({ authorization: `Bearer ${API_KEY}x` })).status).toBe(401);
    const notJson = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: '{' });
    expect(notJson.status).toBe(400);

    // A second session of the same tenant cannot use the first one's MCP session id.
    const other = await client.openSession({ grant: { toolsets: ['mcp-memory'] }, model: { contextLength: 128_000 } });
    const { mcp, transport } = await mcpClient(daemon, token);
    opened.push(mcp);
    const hijack = await post(
      {
        authorization: `Bearer ${other.token}`,
        'mcp-session-id': transport.sessionId ?? '',
        'mcp-protocol-version': '2025-06-18',
      },
      { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} },
    );
    expect(hijack.status).toBe(403);
    expect((await post({ authorization: `Bearer ${token}`, 'mcp-session-id': 'no-such-session' })).status).toBe(404);

    // Closing the session revokes its token.
    const { mcp: ok } = await mcpClient(daemon, other.token);
    await ok.close();
    await client.closeSession(other.session.id);
    expect((await post({ authorization: `Bearer ${other.token}` })).status).toBe(401);
  });

  it('an API key opens a session of its tenant for the connection and closes it with the connection', async () => {
    const keyed = await fixture.client(KEYED);
    const before = (await keyed.listSessions()).total;
    const { mcp, transport } = await mcpClient(daemon, API_KEY);
    const { tools } = await mcp.listTools();
    expect(tools.map((tool) => tool.name)).toContain('tool_search');
    const search = (await mcp.callTool({
      name: 'tool_search',
      arguments: { queries: ['knowledge graph'] },
    })) as CallToolResult;
    expect(text(search)).toContain('read_graph');
    expect((await keyed.listSessions()).total).toBe(before + 1);
    // The key's tenant only: the other tenant's sessions are not visible, nor its servers' tools.
    expect(text(search)).not.toContain(TENANT);
    await transport.terminateSession();
    await mcp.close();
    const deadline = Date.now() + 5000;
    while ((await keyed.listSessions()).total !== before && Date.now() < deadline) await sleep(50);
    expect((await keyed.listSessions()).total).toBe(before);
  });

  it('works with the MCP Inspector command line (tools/list and tools/call over HTTP)', async () => {
    const url = `${daemon.httpAddress}/mcp`;
    const header = `Authorization: Bearer ${token}`;
    // The inspector CLI finds its own package.json through a path relative to the working
    // directory (an upstream quirk): run it from its build folder.
    const cwd = dirname(INSPECTOR);
    const listed = await run(
      process.execPath,
      [INSPECTOR, url, '--transport', 'http', '--method', 'tools/list', '--header', header],
      {
        timeout: 30_000,
        cwd,
      },
    );
    const { tools } = JSON.parse(listed.stdout) as { tools: { name: string }[] };
    expect(tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['tool_search', 'tool_describe', 'tool_call']),
    );
    const called = await run(
      process.execPath,
      [
        INSPECTOR,
        url,
        '--transport',
        'http',
        '--method',
        'tools/call',
        '--tool-name',
        'tool_search',
        '--tool-arg',
        'queries=read graph',
        '--header',
        header,
      ],
      { timeout: 30_000, cwd },
    );
    expect(called.stdout).toContain('read_graph');
  }, 60_000);
});

describe('idle MCP sessions', () => {
  const KEY_TENANT = tenantId('idle');
  const fixture = daemonFixture({
    http: { port: 0, mcpIdleMs: 1000 },
    tenants: {
      [KEY_TENANT]: {
        apiKeys: [
          {
            name: 'forgetful',
            sha256: createHash('sha256').update(API_KEY).digest('hex'),
            grant: { toolsets: [] },
          },
        ],
      },
    },
  });
  afterAll(() => fixture.stop());

  it('ends an MCP session that sends nothing for mcpIdleMs, closing the session its API key opened', async () => {
    const daemon = await fixture.start();
    const keyed = await fixture.client(KEY_TENANT);
    // A client that never says goodbye (no DELETE), like most command-line clients.
    const { transport } = await mcpClient(daemon, API_KEY);
    expect((await keyed.listSessions()).total).toBe(1);
    const deadline = Date.now() + 6000;
    while ((await keyed.listSessions()).total > 0 && Date.now() < deadline) await sleep(100);
    expect((await keyed.listSessions()).total).toBe(0);
    const stale = await fetch(`${daemon.httpAddress}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${API_KEY}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': transport.sessionId ?? '',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list', params: {} }),
    });
    expect(stale.status).toBe(404);
  });
});
