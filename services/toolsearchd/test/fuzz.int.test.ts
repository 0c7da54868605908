import fc from 'fast-check';
import { JSONCodec } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS, subject } from '@toolsearch/proto';
import { hostileJson, hostileStrings } from '@toolsearch/testing';
import type { Daemon } from '../src/daemon';
import { daemonFixture, tenantId } from './harness';

// Long strings stay under the daemon's payload limit, so the handlers (not the size check) see them.
const hostileString = hostileStrings(['mcp-github', 's-xxxxxxxxxxxxxxxxxxxxxxxx'], 5000);
const hostile = hostileJson(hostileString, [
  'grant',
  'toolsets',
  'model',
  'contextLength',
  'queries',
  'names',
  'toolset',
  'id',
  'tools',
  'format',
  'name',
  'transport',
]);

describe('toolsearchd under hostile requests', () => {
  const fixture = daemonFixture();
  const tenant = tenantId('fuzz');
  const victim = tenantId('victim');
  let session = '';
  let daemon: Daemon;
  beforeAll(async () => {
    daemon = await fixture.start();
    const client = await fixture.client(victim);
    await client.putToolset({
      id: 'mcp-secret',
      kind: 'mcp',
      label: 'secret',
      tools: [{ name: 'export_everything', description: 'Export every record.' }],
    });
    session = (await client.openSession({ grant: { toolsets: ['mcp-secret'] }, model: { contextLength: 128_000 } }))
      .session.id;
  });
  afterAll(() => fixture.stop());

  it('answers every random payload on every endpoint with a structured reply, and stays isolated', async () => {
    const nc = await fixture.connection();
    const codec = JSONCodec<{ ok?: unknown; error?: { code?: unknown; message?: unknown } }>();
    const attacker = await fixture.client(tenant);
    const own = (await attacker.openSession({ grant: { toolsets: ['mcp-secret'] }, model: { contextLength: 0 } }))
      .session.id;
    const endpoints = Object.values(ENDPOINTS).filter((endpoint) => endpoint.name !== 'mcp.attach');
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...endpoints),
        hostile,
        fc.constantFrom(own, session, 's-nonexistentnonexistent0'),
        async (endpoint, payload, target) => {
          const subjectName = subject(endpoint.template, { tenant, session: target, id: 'a1' });
          const reply = codec.decode(
            (await nc.request(subjectName, JSONCodec().encode(payload), { timeout: 5000 })).data,
          );
          expect(typeof reply.ok).toBe('boolean');
          if (reply.ok === false) {
            expect(reply.error?.code).toMatch(/^[A-Z_]+$/);
            expect(typeof reply.error?.message).toBe('string');
          }
          // Another tenant's session id never answers here, and its tools never show up.
          if (target === session && endpoint.template.includes('{session}')) expect(reply.ok).toBe(false);
          // Listings of the tenant (sessions.list, audit.recent) never include the other tenant's session.
          expect(JSON.stringify(reply)).not.toContain(session);
          expect(JSON.stringify(reply)).not.toContain('export_everything');
        },
      ),
      { seed: 20261202, numRuns: 150 },
    );
    // Still serving, and the victim's session is intact.
    const victimClient = await fixture.client(victim);
    expect(await victimClient.assemble(session)).toMatchObject({ deferred_count: 1 });
  }, 60_000);

  it('answers every hostile request on /mcp with an HTTP error or a JSON-RPC reply, and stays isolated', async () => {
    const attacker = await fixture.client(tenant);
    const { token } = await attacker.openSession({ grant: { toolsets: ['mcp-secret'] }, model: { contextLength: 0 } });
    const victimClient = await fixture.client(victim);
    const { token: victimToken } = await victimClient.openSession({
      grant: { toolsets: ['mcp-secret'] },
      model: { contextLength: 128_000 },
    });
    const url = `${daemon.httpAddress}/mcp`;
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const initialize = (bearer: string) =>
      fetch(url, {
        method: 'POST',
        headers: { ...headers, authorization: `Bearer ${bearer}` },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 0,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } },
        }),
      });
    // A live MCP session of the attacker, to aim requests at.
    const opened = await initialize(token);
    const mcpSession = opened.headers.get('mcp-session-id') ?? '';
    await opened.body?.cancel();
    expect(mcpSession).not.toBe('');
    const jsonRpc = fc.record({
      jsonrpc: fc.constantFrom('2.0', '1.0', 2),
      id: fc.oneof(fc.integer(), hostileString, fc.constant(null)),
      method: fc.oneof(
        fc.constantFrom('tools/list', 'tools/call', 'initialize', 'ping', 'resources/list', '__proto__'),
        hostileString,
      ),
      params: hostile,
    });
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(jsonRpc, hostile, fc.array(jsonRpc, { maxLength: 5 })),
        fc.constantFrom(`Bearer ${token}`, `Bearer ${victimToken}`, 'Bearer tst_forged', '', 'Basic abc'),
        fc.constantFrom(mcpSession, '', 'not-a-session', '../../etc/passwd'),
        fc.constantFrom('POST', 'GET', 'DELETE'),
        async (body, authorization, sessionId, method) => {
          const response = await fetch(url, {
            method,
            headers: {
              ...headers,
              ...(authorization !== '' ? { authorization } : {}),
              ...(sessionId !== '' ? { 'mcp-session-id': sessionId } : {}),
            },
            ...(method === 'POST' ? { body: JSON.stringify(body) } : {}),
            signal: AbortSignal.timeout(5000),
          }).catch((error: Error) => error);
          if (response instanceof Error) {
            // A GET on a live session opens an event stream that stays open: the abort is ours.
            expect(method).toBe('GET');
            return;
          }
          expect([200, 202, 400, 401, 403, 404, 405, 406, 409, 413, 415]).toContain(response.status);
          const text = method === 'GET' && response.status === 200 ? '' : await response.text();
          if (response.status !== 200) await response.body?.cancel().catch(() => undefined);
          // Another tenant's tools never appear, whatever was sent and with whichever credential.
          expect(text).not.toContain('export_everything');
        },
      ),
      { seed: 20261203, numRuns: 150 },
    );
    // Still serving MCP for everyone else.
    const after = await initialize(victimToken);
    expect(after.status).toBe(200);
    await after.body?.cancel();
  }, 90_000);
});
