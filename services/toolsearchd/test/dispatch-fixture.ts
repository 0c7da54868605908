import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { JSONCodec, type NatsConnection, type Subscription } from 'nats';
import type { ToolsearchClient } from '@toolsearch/client';
import type { ExecReply, ExecRequest } from '@toolsearch/proto';
import type { Daemon } from '../src/daemon';
import { daemonFixture, tenantId } from './harness';

/**
 * The daemon of `dispatch.int.test.ts`: three tenants (one with a deny rule and a rate limit, one
 * whose approvals expire in 400 ms), a plugin toolset served over NATS the way a plugin would, a
 * toolset nobody serves, a real stdio MCP server that records its calls, hooks that redact and
 * block, and a gateway session granted all three toolsets.
 */
const codec = JSONCodec<unknown>();
const FIXTURE = fileURLToPath(new URL('./fixtures/file-driven-mcp-server.mjs', import.meta.url));

/** Serves `exec.<toolset>` for a tenant the way a plugin would, recording every request. */
export function serveToolset(
  nc: NatsConnection,
  tenant: string,
  toolset: string,
  handle: (request: ExecRequest) => Promise<ExecReply>,
): { calls: { request: ExecRequest; started: number; finished: number }[]; subscription: Subscription } {
  const calls: { request: ExecRequest; started: number; finished: number }[] = [];
  const subscription = nc.subscribe(`toolsearch.v1.${tenant}.exec.${toolset}`, {
    callback: (error, message) => {
      if (error) return;
      const request = codec.decode(message.data) as ExecRequest;
      const started = Date.now();
      void handle(request).then((reply) => {
        calls.push({ request, started, finished: Date.now() });
        message.respond(codec.encode(reply));
      });
    },
  });
  return { calls, subscription };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
export const obj = { type: 'object', properties: {} };

export const TENANT = tenantId('disp');
export const SHORT = tenantId('short');
export const OTHER = tenantId('other');

/** What the tests reach once the daemon is up (`dispatchFixture().start`). */
export interface DispatchWorld {
  readonly daemon: Daemon;
  readonly client: ToolsearchClient;
  readonly operator: ToolsearchClient;
  readonly nc: NatsConnection;
  readonly ops: ReturnType<typeof serveToolset>;
  readonly gateway: string;
  readonly gatewayToken: string;
}

/** The daemon fixture, the hooks' record of the tools they saw, and the MCP server's call log. */
export function dispatchFixture() {
  const fixture = daemonFixture({
    tenants: {
      [TENANT]: {
        policy: {
          deny: ['forbidden_*'],
          rateLimits: [{ scope: 'session', limit: 2, windowMs: 60_000, tools: ['ping'] }],
        },
      },
      [SHORT]: { policy: { approval: { expiryMs: 400 } } },
    },
  });
  const dir = mkdtempSync(join(tmpdir(), 'toolsearch-dispatch-'));
  const callLog = join(dir, 'calls.jsonl');
  const hookSeen: string[] = [];

  const mcpCalls = (name: string) =>
    existsSync(callLog)
      ? readFileSync(callLog, 'utf8')
          .split('\n')
          .filter((line) => line.trim() !== '')
          .map((line) => JSON.parse(line) as { name: string; arguments: Record<string, unknown> })
          .filter((call) => call.name === name)
      : [];

  const start = async (): Promise<DispatchWorld> => {
    const daemon = await fixture.start([
      {
        before: (call) => {
          hookSeen.push(call.tool.name);
          if (call.tool.name === 'redacted_echo') return { arguments: { text: '[redacted]' } };
          if (call.arguments['text'] === 'block me') return { block: 'the hook refuses this text' };
          return undefined;
        },
        after: (call, result) =>
          call.tool.name === 'redacted_echo' && result.ok ? { ...result, data: { shaped: result.data } } : undefined,
      },
    ]);
    const client = await fixture.client(TENANT);
    const operator = await fixture.client(TENANT);
    const nc = await fixture.connection();
    const ops = serveToolset(nc, TENANT, 'ops', async (request) => {
      const delay = Number(request.arguments['delay_ms'] ?? 0);
      if (delay > 0) await sleep(delay);
      return { ok: true, data: { ran: request.tool, arguments: request.arguments } };
    });
    await client.putToolset({
      id: 'ops',
      kind: 'plugin',
      label: 'ops',
      tools: [
        { name: 'sleep', description: 'Wait a while.', inputSchema: obj, annotations: { readOnlyHint: true } },
        { name: 'write_row', description: 'Append a row to the ledger.', inputSchema: obj },
        { name: 'drop_table', description: 'Drop a whole table.', inputSchema: obj, risk: 'high' },
        { name: 'forbidden_launch', description: 'Launch something.', inputSchema: obj },
        { name: 'ping', description: 'Ping.', inputSchema: obj, annotations: { readOnlyHint: true } },
        {
          name: 'redacted_echo',
          description: 'Echo a text.',
          inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
        },
      ],
    });
    await client.putToolset({
      id: 'ghost',
      kind: 'plugin',
      label: 'ghost',
      tools: [{ name: 'haunt', description: 'Nobody serves this.', inputSchema: obj }],
    });
    const toolsFile = join(dir, 'tools.json');
    writeFileSync(
      toolsFile,
      JSON.stringify([
        {
          name: 'delete_file',
          description: 'Delete a file.',
          inputSchema: obj,
          annotations: { destructiveHint: true },
        },
        { name: 'read_file', description: 'Read a file.', inputSchema: obj, annotations: { readOnlyHint: true } },
        { name: 'fail', description: 'Always fails.', inputSchema: obj, annotations: { readOnlyHint: true } },
      ]),
    );
    await daemon.attachMcp(TENANT, {
      name: 'files',
      transport: { type: 'stdio', command: process.execPath, args: [FIXTURE, toolsFile, callLog] },
      supports_parallel_tool_calls: false,
    });
    const { session, token } = await client.openSession({
      grant: { toolsets: ['ops', 'ghost', 'mcp-files'] },
      model: { contextLength: 128_000 },
    });
    return { daemon, client, operator, nc, ops, gateway: session.id, gatewayToken: token };
  };
  return { fixture, callLog, hookSeen, mcpCalls, start };
}
