import { JSONCodec } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolsearchClient } from '@toolsearch/client';
import type { PostHookRequest, PreHookRequest } from '@toolsearch/proto';
import { daemonFixture, serveExec, tenantId } from './harness';

const codec = JSONCodec<unknown>();
const HOOKED = tenantId('hooked');
const SILENT = tenantId('silent');
const OPEN = tenantId('open');
const tools = [
  {
    name: 'send_mail',
    description: 'Send an email.',
    inputSchema: {
      type: 'object',
      properties: { to: { type: 'string' }, body: { type: 'string' } },
      required: ['to'],
    },
  },
  { name: 'wipe_disk', description: 'Erase a disk.', inputSchema: { type: 'object', properties: {} } },
];

describe('external call hooks over NATS', () => {
  const fixture = daemonFixture({
    tenants: {
      [HOOKED]: { policy: { hooks: { pre: { timeoutMs: 1000 }, post: { timeoutMs: 1000, arguments: false } } } },
      // Nobody serves these tenants' hooks: one refuses without an answer, the other runs.
      [SILENT]: { policy: { hooks: { pre: { timeoutMs: 200 } } } },
      [OPEN]: { policy: { hooks: { pre: { timeoutMs: 200, onError: 'allow' } } } },
    },
  });
  const sessions = new Map<string, { client: ToolsearchClient; session: string; ran: { arguments: unknown }[] }>();

  beforeAll(async () => {
    await fixture.start();
    const nc = await fixture.connection();
    for (const tenant of [HOOKED, SILENT, OPEN]) {
      const client = await fixture.client(tenant);
      const ran = await serveExec(nc, tenant, 'mail', (request) => ({ sent: request.arguments }));
      await client.putToolset({ id: 'mail', kind: 'plugin', label: 'mail', tools });
      const { session } = await client.openSession({
        grant: { toolsets: ['mail'] },
        model: { contextLength: 128_000 },
      });
      sessions.set(tenant, { client, session: session.id, ran });
    }
  }, 30_000);
  afterAll(() => fixture.stop());

  it('let the gateway allow, deny or rewrite each call, re-check a rewrite, and are told the outcome', async () => {
    const { client, session, ran } = sessions.get(HOOKED) ?? (undefined as never);
    const gateway = await fixture.connection();
    const asked: PreHookRequest[] = [];
    const told: PostHookRequest[] = [];
    gateway.subscribe(`toolsearch.v1.${HOOKED}.hooks.pre`, {
      callback: (_, message) => {
        const request = codec.decode(message.data) as PreHookRequest;
        asked.push(request);
        const to = request.arguments?.['to'];
        const reply =
          request.original_name === 'wipe_disk'
            ? { decision: 'deny', reason: 'disks are wiped by hand' }
            : to === 'everyone@example.com'
              ? { decision: 'allow', arguments: { to: 'team@example.com', body: request.arguments?.['body'] } }
              : to === 'broken'
                ? { decision: 'allow', arguments: { body: 'no recipient' } }
                : { decision: 'allow' };
        message.respond(codec.encode(reply));
      },
    });
    gateway.subscribe(`toolsearch.v1.${HOOKED}.hooks.post`, {
      callback: (_, message) => {
        told.push(codec.decode(message.data) as PostHookRequest);
        message.respond(codec.encode({}));
      },
    });
    await gateway.flush();

    const { results } = await client.dispatch(session, [
      { id: 'c1', name: 'send_mail', arguments: { to: 'ada@example.com', body: 'hi' } },
      { id: 'c2', name: 'wipe_disk', arguments: {} },
      { id: 'c3', name: 'send_mail', arguments: { to: 'everyone@example.com', body: 'all' } },
      { id: 'c4', name: 'send_mail', arguments: { to: 'broken' } },
    ]);
    expect(results.map((result) => [result.id, result.ok, result.error?.code ?? null])).toEqual([
      ['c1', true, null],
      ['c2', false, 'BLOCKED_BY_HOOK'],
      ['c3', true, null],
      ['c4', false, 'INVALID_ARGUMENTS'],
    ]);
    expect(results[1]?.error?.message).toContain('disks are wiped by hand');
    // The rewrite is what ran; the refused and the invalid never ran.
    expect(ran.map((request) => request.arguments)).toEqual([
      { to: 'ada@example.com', body: 'hi' },
      { to: 'team@example.com', body: 'all' },
    ]);
    expect(asked[0]).toMatchObject({
      tenant: HOOKED,
      session,
      role: 'gateway',
      call_id: 'c1',
      original_name: 'send_mail',
      toolset: 'mail',
      digest: expect.stringMatching(/^[0-9a-f]{64}$/),
      arguments: { to: 'ada@example.com', body: 'hi' },
    });
    // Told after each call that ran, without arguments (this tenant's post hook sends none).
    expect(told.map((request) => [request.call_id, request.ok])).toEqual([
      ['c1', true],
      ['c3', true],
    ]);
    expect(told[0]).not.toHaveProperty('arguments');
    const operator = await fixture.client(HOOKED, 'operator');
    const { records } = await operator.recentActivity({ session, limit: 50 });
    const outcomes = records
      .filter((record) => record.outcome.startsWith('hook.'))
      .map((r) => `${r.call_id} ${r.outcome}`);
    expect(outcomes.sort()).toEqual(
      [
        'c1 hook.pre:allow',
        'c1 hook.post:answered',
        'c2 hook.pre:deny',
        'c3 hook.pre:rewrite',
        'c3 hook.post:answered',
        'c4 hook.pre:rewrite',
      ].sort(),
    );
  });

  it('follow onError when nobody answers: deny refuses the call, allow runs it', async () => {
    const silent = sessions.get(SILENT) ?? (undefined as never);
    const refused = await silent.client.dispatch(silent.session, [
      { id: 'x', name: 'send_mail', arguments: { to: 'a' } },
    ]);
    expect(refused.results[0]?.error?.code).toBe('BLOCKED_BY_HOOK');
    expect(silent.ran).toHaveLength(0);
    const open = sessions.get(OPEN) ?? (undefined as never);
    const allowed = await open.client.dispatch(open.session, [{ id: 'y', name: 'send_mail', arguments: { to: 'a' } }]);
    expect(allowed.results[0]).toMatchObject({ ok: true });
    expect(open.ran).toHaveLength(1);
  });
});
