import fc from 'fast-check';
import { JSONCodec } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS, subject } from '@toolsearch/proto';
import { hostileJson, hostileStrings } from '@toolsearch/testing';
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
  beforeAll(async () => {
    await fixture.start();
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
});
