import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { connect, type NatsConnection } from 'nats';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { ToolsearchClient } from '@toolsearch/client';
import { ENDPOINTS } from '@toolsearch/proto';
import { Daemon } from '../src/daemon';
import { cleanup, freePort, NATS_URL, tenantId, TEST_KEYS, testConfig } from './harness';

// Secrets in MCP server configs (environment, headers) and credentials (API keys, session tokens)
// must never show up in logs, events, replies, errors, audit records or metrics.
const FIXTURE = fileURLToPath(new URL('./fixtures/file-driven-mcp-server.mjs', import.meta.url));
const obj = { type: 'object', properties: {} };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ENV_SECRET = 'sk-env-5ecret-never-logged-0001';
const HEADER_SECRET = 'hdr-5ecret-never-logged-0002';
const API_KEY = 'tsk_api-key-5ecret-never-logged-0003';
const TENANT = tenantId('secret');

describe('secrets stay out of every output', () => {
  const config = testConfig({
    log: { level: 'trace' },
    // The HTTP servers attached below are on 127.0.0.1: the outbound policy must allow loopback.
    mcp: { allowedCommands: [], outbound: { allowPrivate: true } },
    tenants: {
      [TENANT]: {
        apiKeys: [
          {
            name: 'loopback',
            sha256: createHash('sha256').update(API_KEY).digest('hex'),
            grant: { toolsets: ['mcp-local'] },
            // Bridge off: the loopback server then offers the local tools themselves.
            config: { enabled: 'off' },
          },
        ],
      },
    },
  });
  const logs: string[] = [];
  const seen: string[] = [];
  let daemon: Daemon | undefined;
  let watcher: NatsConnection | undefined;
  afterAll(async () => {
    await watcher?.close();
    await daemon?.close();
    await cleanup(config);
  });

  it('through attach, calls, crashes, errors, events, audit and metrics', async () => {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logs.push(chunk.toString());
        done();
      },
    });
    daemon = new Daemon(config, { logger: pino({ level: 'trace' }, sink) });
    await daemon.start();
    // Everything the tenant's subjects and every reply inbox carry, except the attach requests
    // themselves (the caller sends its own secret there).
    watcher = await connect({ servers: NATS_URL });
    watcher.subscribe('>', {
      callback: (error, message) => {
        if (error || message.subject.endsWith('.mcp.attach')) return;
        seen.push(`${message.subject} ${new TextDecoder().decode(message.data)}`);
      },
    });
    await watcher.flush();
    const nc = await connect({ servers: NATS_URL });
    const client = new ToolsearchClient(nc, TENANT, { credential: TEST_KEYS.test });
    const replies: unknown[] = [];
    const keep = async <T>(promise: Promise<T>) => {
      const value = await promise.catch((error: unknown) => ({ error: String(error), ...(error as object) }));
      replies.push(value);
      return value;
    };

    // A stdio server with a secret in its environment.
    const dir = mkdtempSync(join(tmpdir(), 'toolsearch-secrets-'));
    const toolsFile = join(dir, 'tools.json');
    writeFileSync(
      toolsFile,
      JSON.stringify([
        { name: 'lookup', description: 'Look up.', inputSchema: obj, annotations: { readOnlyHint: true } },
        { name: 'crash', description: 'Crash.', inputSchema: obj },
      ]),
    );
    await daemon.attachMcp(TENANT, {
      name: 'local',
      transport: {
        type: 'stdio',
        command: process.execPath,
        args: [FIXTURE, toolsFile],
        env: { API_TOKEN: ENV_SECRET },
      },
      supports_parallel_tool_calls: true,
    });
    // A real HTTP MCP server with a secret header: this daemon's own /mcp, entered with an API key.
    await keep(
      client.call(ENDPOINTS.mcpAttach, {
        name: 'loopback',
        transport: {
          type: 'http',
          url: `${daemon.httpAddress}/mcp`,
          headers: { Authorization: `Bearer ${API_KEY}`, 'X-Extra': HEADER_SECRET },
        },
      }),
    );
    // Unreachable, and not allowed: errors that must not echo the config.
    const port = await freePort();
    await keep(
      client.call(ENDPOINTS.mcpAttach, {
        name: 'nowhere',
        transport: {
          type: 'http',
          url: `http://127.0.0.1:${port}/mcp`,
          headers: { Authorization: `Bearer ${HEADER_SECRET}` },
        },
      }),
    );
    await keep(
      client.call(ENDPOINTS.mcpAttach, {
        name: 'sneaky',
        transport: { type: 'stdio', command: '/bin/sh', args: ['-c', 'true'], env: { TOKEN: ENV_SECRET } },
      }),
    );

    const opened = await client.openSession({
      grant: { toolsets: ['mcp-local', 'mcp-loopback'] },
      model: { contextLength: 128_000 },
    });
    const session = opened.session.id;
    await keep(client.assemble(session));
    await keep(client.search(session, ['look up']));
    const turn = (await keep(
      client.dispatch(session, [
        { id: 'c1', name: 'local__lookup', arguments: {} },
        // Through the HTTP server (the secret header goes with every request it makes).
        {
          id: 'c2',
          name: 'tool_call',
          arguments: { name: 'loopback__local__lookup', arguments: {} },
        },
      ]),
    )) as { results: { ok: boolean }[] };
    expect(turn.results.map((result) => result.ok)).toEqual([true, true]);
    await keep(client.dispatch(session, [{ id: 'c3', name: 'local__crash', arguments: {} }]));
    await sleep(1500); // the crash is logged, the server reconnects
    await keep(client.dispatch(session, [{ id: 'c4', name: 'local__lookup', arguments: {} }]));
    await keep(client.listToolsets());
    await keep(client.recentActivity({ limit: 100 }));
    await keep(client.showSession(session));
    const metrics = await (await fetch(`${daemon.httpAddress}/metrics`)).text();
    await nc.close();
    await sleep(200);

    // The checks are only worth something if the traffic happened.
    expect(logs.length).toBeGreaterThan(5);
    expect(seen.some((line) => line.includes('evt.activity'))).toBe(true);
    expect(metrics).toContain('toolsearch_mcp_servers');
    const outputs = {
      logs: logs.join('\n'),
      nats: seen.join('\n'),
      replies: JSON.stringify(replies),
      metrics,
    };
    for (const [where, text] of Object.entries(outputs)) {
      for (const secret of [ENV_SECRET, HEADER_SECRET, API_KEY])
        expect(text.includes(secret), `${where} must not contain a secret`).toBe(false);
    }
    // A session token travels once: in the sessions.open reply, to the caller's own inbox.
    expect(opened.token).toMatch(/^tst_/);
    expect(seen.filter((line) => line.includes(opened.token))).toHaveLength(1);
    for (const where of ['logs', 'replies', 'metrics'] as const)
      expect(outputs[where].includes(opened.token), `${where} must not contain the session token`).toBe(false);
  }, 60_000);
});
