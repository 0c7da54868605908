import { headers, JSONCodec } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS, subject, type TierEvent } from '@toolsearch/proto';
import { cleanup, clientFor, collect, daemonFixture, startDaemon, tenantId, TEST_KEYS, testConfig } from './harness';

const github = {
  id: 'mcp-github',
  kind: 'mcp',
  label: 'github',
  tools: [
    {
      name: 'create_issue',
      description: 'Open a new issue in a repository.',
      inputSchema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
    },
    { name: 'list_repos', description: 'List repositories of an account.' },
  ],
};
const slack = {
  id: 'mcp-slack',
  kind: 'mcp',
  label: 'slack',
  tools: [{ name: 'post_message', description: 'Post a message to a channel.' }],
};
const linear = {
  id: 'mcp-linear',
  kind: 'mcp',
  label: 'linear',
  tools: [{ name: 'create_ticket', description: 'Create a ticket in a team.' }],
};

describe('toolsearchd over NATS', () => {
  const fixture = daemonFixture({ limits: { maxPayloadBytes: 64 * 1024 } });
  const client = (tenant: string) => fixture.client(tenant);

  beforeAll(() => fixture.start());
  afterAll(() => fixture.stop());

  it('opens a session, assembles, goes live when a toolset arrives, searches, describes, and drops back on delete', async () => {
    const acme = await client(tenantId('acme'));
    const { session } = await acme.openSession({
      grant: { toolsets: ['mcp-github', 'mcp-slack'] },
      model: { contextLength: 128_000 },
    });
    expect(session.id).toMatch(/^s-/);
    const empty = await acme.assemble(session.id);
    expect(empty).toMatchObject({ tier: 0, deferred_count: 0 });

    const events = collect<TierEvent>(1);
    const sub = acme.onTier(session.id, events.push);
    await acme.putToolset(github);
    const [event] = await events.done;
    expect(event).toMatchObject({ session: session.id, tier: 1, listing_form: 'full', deferred_count: 2 });

    // Tier events carry the hash of the OpenAI-format surface, the default of assemble.
    expect((await acme.assemble(session.id)).hash).toBe(event?.hash);
    const anthropic = await acme.assemble(session.id, 'anthropic');
    expect(anthropic.tools.map((tool) => tool['name'])).toEqual(['tool_search', 'tool_describe', 'tool_call']);

    const search = await acme.search(session.id, ['open an issue']);
    expect((search.result as { results: { matches: string[] }[] }).results[0]?.matches[0]).toBe('github__create_issue');
    expect(search).not.toHaveProperty('explain');
    const explained = await acme.search(session.id, ['open an issue'], undefined, { explain: true });
    expect(explained.explain?.[0]).toMatchObject({
      query: 'open an issue',
      matches: [{ rank: 1, name: 'github__create_issue' }],
    });
    const described = await acme.describe(session.id, ['github__create_issue', 'nope']);
    expect(described.result).toMatchObject({
      tools: { github__create_issue: { parameters: { required: ['title'] } } },
      not_found: ['nope'],
    });

    const back = collect<TierEvent>(1);
    sub.unsubscribe();
    const sub2 = acme.onTier(session.id, back.push);
    await acme.deleteToolset('mcp-github');
    expect((await back.done)[0]).toMatchObject({ tier: 0, deferred_count: 0 });
    sub2.unsubscribe();
  });

  it('sends no tier event for a change outside the grant', async () => {
    const acme = await client(tenantId('acme'));
    const { session } = await acme.openSession({
      grant: { toolsets: ['mcp-github'] },
      model: { contextLength: 128_000 },
    });
    const seen: TierEvent[] = [];
    const sub = acme.onTier(session.id, (event) => seen.push(event));
    await acme.putToolset(linear);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(seen).toEqual([]);
    sub.unsubscribe();
  });

  it('refuses a child that asks for more than its parent, and keeps a narrower child inside its grant', async () => {
    const acme = await client(tenantId('acme'));
    await acme.putToolset(github);
    await acme.putToolset(slack);
    const { session: parent } = await acme.openSession({
      grant: { toolsets: ['mcp-github', 'mcp-slack'] },
      model: { contextLength: 128_000 },
    });
    await expect(
      acme.openSession({
        role: 'subagent',
        parent: parent.id,
        grant: { toolsets: ['mcp-github', 'mcp-linear'] },
        model: { contextLength: 8000 },
      }),
    ).rejects.toMatchObject({ code: 'GRANT_EXCEEDS_PARENT' });
    const { session: child } = await acme.openSession({
      role: 'subagent',
      parent: parent.id,
      grant: { toolsets: ['mcp-slack'] },
      model: { contextLength: 8000 },
    });
    const search = (await acme.search(child.id, ['github issue', 'post message'])).result as {
      total_available: number;
      tools: Record<string, unknown>;
    };
    expect(search.total_available).toBe(1);
    expect(Object.keys(search.tools)).toEqual(['slack__post_message']);
    const described = (await acme.describe(child.id, ['github__create_issue'])).result;
    expect(described).toMatchObject({ not_found: ['github__create_issue'] });
    const closed = await acme.closeSession(parent.id);
    expect(new Set(closed.closed)).toEqual(new Set([parent.id, child.id]));
    await expect(acme.assemble(child.id)).rejects.toMatchObject({ code: 'SESSION_NOT_FOUND' });
  });

  it('keeps tenants apart on every subject', async () => {
    const a = await client(tenantId('a'));
    const b = await client(tenantId('b'));
    await a.putToolset(github);
    const { session } = await a.openSession({ grant: { toolsets: ['mcp-github'] }, model: { contextLength: 128_000 } });
    for (const call of [
      () => b.assemble(session.id),
      () => b.search(session.id, ['issue']),
      () => b.describe(session.id, ['github__create_issue']),
      () => b.closeSession(session.id),
    ]) {
      await expect(call()).rejects.toMatchObject({ code: 'SESSION_NOT_FOUND' });
    }
    const { session: own } = await b.openSession({
      grant: { toolsets: ['mcp-github'] },
      model: { contextLength: 128_000 },
    });
    expect(await b.assemble(own.id)).toMatchObject({ tier: 0, deferred_count: 0 });
    expect(((await b.search(own.id, ['issue'])).result as { total_available: number }).total_available).toBe(0);
    expect(await a.assemble(session.id)).toMatchObject({ deferred_count: 2 });
  });

  it('is discoverable through the NATS services framework', async () => {
    const nc = await fixture.connection();
    const infos = [];
    for await (const info of await nc.services.client().info('toolsearch')) infos.push(info);
    expect(infos.length).toBeGreaterThanOrEqual(1);
    const endpoints = infos.flatMap((info) => info.endpoints.map((endpoint) => endpoint.subject));
    expect(endpoints).toContain('toolsearch.v1.*.sessions.*.search');
    expect(endpoints).toContain('toolsearch.v1.*.sessions.open');
  });

  it('answers bad requests with stable codes and keeps serving', async () => {
    const tenant = tenantId('bad');
    const nc = await fixture.connection();
    const codec = JSONCodec<{ ok: boolean; error?: { code: string } }>();
    const auth = headers();
    auth.set('Authorization', `Bearer ${TEST_KEYS.test}`);
    const ask = async (subjectName: string, data: Uint8Array, withKey = true) =>
      codec.decode(
        (await nc.request(subjectName, data, { timeout: 3000, ...(withKey ? { headers: auth } : {}) })).data,
      );
    const open = subject(ENDPOINTS.sessionsOpen.template, { tenant });
    // Who asks comes before what is asked: without a credential the request itself is not looked at.
    expect(await ask(open, JSONCodec().encode({ grant: { toolsets: 'x' } }), false)).toMatchObject({
      ok: false,
      error: { code: 'UNAUTHENTICATED' },
    });
    expect(await ask(open, new TextEncoder().encode('{not json'))).toMatchObject({
      ok: false,
      error: { code: 'BAD_REQUEST' },
    });
    expect(
      await ask(open, JSONCodec().encode({ grant: { toolsets: 'x' }, model: { contextLength: 1 } })),
    ).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
    expect(await ask('toolsearch.v1.Not_A_Tenant.sessions.open', JSONCodec().encode({}))).toMatchObject({
      ok: false,
      error: { code: 'BAD_REQUEST' },
    });
    expect(await ask(open, new Uint8Array(fixture.config.limits.maxPayloadBytes + 1).fill(32))).toMatchObject({
      ok: false,
      error: { code: 'PAYLOAD_TOO_LARGE' },
    });
    expect(
      await ask(subject(ENDPOINTS.approvalsList.template, { tenant }), JSONCodec().encode({ limit: 'all' })),
    ).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
    const c = await client(tenant);
    const { session } = await c.openSession({ grant: { toolsets: [] }, model: { contextLength: 0 } });
    await expect(c.search(session.id, [])).rejects.toMatchObject({ code: 'BAD_ARGUMENTS' });
    expect(await c.assemble(session.id)).toMatchObject({ ok: true });
  });
});

describe('sessions beyond the in-memory limit', () => {
  it('are dropped from memory, still get tier events, and come back on their next request', async () => {
    const config = testConfig({ limits: { maxSessionsInMemory: 2 } });
    const daemon = await startDaemon(config);
    const tenant = tenantId('lru');
    const { nc, client } = await clientFor(tenant);
    try {
      const ids: string[] = [];
      for (let i = 0; i < 5; i += 1) {
        ids.push(
          (await client.openSession({ grant: { toolsets: ['mcp-github'] }, model: { contextLength: 128_000 } })).session
            .id,
        );
      }
      expect(daemon.sessionsInMemory).toBe(2);
      const events = collect<TierEvent>(5);
      const subs = ids.map((id) => client.onTier(id, events.push));
      await client.putToolset(github);
      expect(new Set((await events.done).map((event) => event.session))).toEqual(new Set(ids));
      for (const sub of subs) sub.unsubscribe();
      expect(await client.assemble(ids[0] ?? '')).toMatchObject({ deferred_count: 2 });
      expect(daemon.sessionsInMemory).toBe(2);
    } finally {
      await nc.close();
      await daemon.close();
      await cleanup(config);
    }
  });
});

describe('two replicas', () => {
  it('serve one session with identical results, and one keeps serving when the other stops', async () => {
    const config = testConfig();
    const first = await startDaemon(config);
    const second = await startDaemon(config);
    const tenant = tenantId('rep');
    const { nc, client } = await clientFor(tenant);
    try {
      await client.putToolset(github);
      const { session } = await client.openSession({
        grant: { toolsets: ['mcp-github'] },
        model: { contextLength: 128_000 },
      });
      const hashes = new Set<string>();
      for (let i = 0; i < 12; i += 1) hashes.add((await client.assemble(session.id)).hash);
      expect(hashes.size).toBe(1);
      // A session closed on one replica is gone on both, even where it was cached.
      const { session: other } = await client.openSession({
        grant: { toolsets: ['mcp-github'] },
        model: { contextLength: 8000 },
      });
      for (let i = 0; i < 6; i += 1) await client.assemble(other.id);
      await client.closeSession(other.id);
      for (let i = 0; i < 6; i += 1)
        await expect(client.assemble(other.id)).rejects.toMatchObject({ code: 'SESSION_NOT_FOUND' });
      await first.close();
      const after = await client.assemble(session.id);
      expect(hashes.has(after.hash)).toBe(true);
      expect(
        ((await client.search(session.id, ['issue'])).result as { results: { matches: string[] }[] }).results[0]
          ?.matches,
      ).toContain('github__create_issue');
    } finally {
      await nc.close();
      await first.close();
      await second.close();
      await cleanup(config);
    }
  });
});
