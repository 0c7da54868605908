import { headers, JSONCodec } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolsetSchema } from '@toolsearch/catalog';
import { ToolsearchClient } from '@toolsearch/client';
import { ENDPOINTS, subject } from '@toolsearch/proto';
import { daemonFixture, tenantId, TEST_KEYS } from './harness';

// Who may act as whom, on open NATS (what a test daemon runs on): every answer below comes from
// the daemon's own check of the request's credential, not from NATS permissions.
const TENANT = tenantId('who');
const obj = { type: 'object', properties: {} };
const model = { contextLength: 128_000 };

describe('identity and authority over NATS', () => {
  const fixture = daemonFixture({ tenants: { [TENANT]: { catalogs: [] } } });
  let gateway: ToolsearchClient;
  let other: ToolsearchClient;
  let session: string;
  let token: string;

  beforeAll(async () => {
    const daemon = await fixture.start();
    // What an operator declares in the config: the tenant may use it, never replace it.
    await daemon.registerToolsets(TENANT, [
      ToolsetSchema.parse({
        id: 'core',
        kind: 'plugin',
        label: 'core',
        tools: [{ name: 'read_file', description: 'Read a file.' }],
      }),
    ]);
    gateway = await fixture.client(TENANT, 'gateway');
    other = await fixture.client(TENANT, 'other');
    await gateway.putToolset({
      id: 'ops',
      kind: 'plugin',
      label: 'ops',
      tools: [{ name: 'status', description: 'Show service status.', inputSchema: obj }],
    });
    ({
      session: { id: session },
      token,
    } = await gateway.openSession({ grant: { toolsets: ['ops', 'core'] }, model }));
  }, 30_000);
  afterAll(() => fixture.stop());

  const as = async (credential?: string) =>
    new ToolsearchClient(await fixture.connection(), TENANT, credential === undefined ? {} : { credential });

  it('refuses a request without a credential, or with a key it does not know, as UNAUTHENTICATED', async () => {
    for (const credential of [undefined, 'tsk_nobody-configured-this-key-000000000']) {
      const anonymous = await as(credential);
      await expect(anonymous.openSession({ grant: { toolsets: ['ops'] }, model })).rejects.toMatchObject({
        code: 'UNAUTHENTICATED',
      });
      await expect(anonymous.search(session, ['status'])).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
      await expect(anonymous.listApprovals()).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    }
    // A malformed header is no credential either.
    const nc = await fixture.connection();
    const bad = headers();
    bad.set('Authorization', 'Basic dXNlcjpwYXNz');
    const reply = JSONCodec<{ ok: boolean; error?: { code: string; message: string } }>().decode(
      (
        await nc.request(
          subject(ENDPOINTS.sessionsSearch.template, { tenant: TENANT, session }),
          JSONCodec().encode({ queries: ['status'] }),
          { headers: bad, timeout: 3000 },
        )
      ).data,
    );
    expect(reply).toMatchObject({ ok: false, error: { code: 'UNAUTHENTICATED' } });
    expect(reply.error?.message).toContain('Authorization: Bearer');
  });

  it("a session is acted on with its token or its gateway's key, never by another gateway of the tenant", async () => {
    // Its own token, from a process that never opened it (a worker, another gateway process).
    const holder = await as();
    holder.useSession(session, token);
    expect((await holder.search(session, ['status'])).ok).toBe(true);
    expect((await gateway.assemble(session)).ok).toBe(true);
    // Another gateway credential of the same tenant: refused on every session endpoint.
    const foreign = await as(TEST_KEYS.other);
    await expect(foreign.search(session, ['status'])).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(foreign.assemble(session)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(foreign.dispatch(session, [{ id: 'c1', name: 'status', arguments: {} }])).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    await expect(foreign.closeSession(session)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    // Another session's token acts on its own session only.
    const { session: mine } = await other.openSession({ grant: { toolsets: ['ops'] }, model });
    const stranger = await as();
    stranger.useSession(session, (await other.openSession({ grant: { toolsets: ['ops'] }, model })).token);
    await expect(stranger.search(session, ['status'])).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect((await other.search(mine.id, ['status'])).ok).toBe(true);
    // The session is still there, untouched.
    expect((await gateway.search(session, ['status'])).ok).toBe(true);
  });

  it('a parent is named only by who holds it: a forged parent opens nothing', async () => {
    const forged = await as(TEST_KEYS.other);
    await expect(
      forged.openSession({ role: 'subagent', parent: session, grant: { toolsets: ['ops'] }, model }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(
      forged.spawn({ parent: session, role: 'subagent', grant: { toolsets: ['ops'] }, task: {} }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
    // The parent's own token may; the child's token then acts on the child, not on the parent.
    const parent = await as();
    parent.useSession(session, token);
    const spawned = await parent.spawn({ parent: session, role: 'subagent', grant: { toolsets: ['ops'] }, task: {} });
    const worker = await as(spawned.token);
    expect((await worker.search(spawned.session.id, ['status'])).ok).toBe(true);
    await expect(worker.search(session, ['status'])).rejects.toMatchObject({ code: 'FORBIDDEN' });
    // The gateway that opened the root acts on the child too, and the parent's token does.
    expect((await gateway.assemble(spawned.session.id)).ok).toBe(true);
    expect((await parent.assemble(spawned.session.id)).ok).toBe(true);
  });

  it('sessions.list shows a gateway its own sessions; an operator sees all of them', async () => {
    const mine = await gateway.listSessions();
    expect(mine.sessions.map((entry) => entry.id)).toContain(session);
    const theirs = await other.listSessions();
    expect(theirs.sessions.map((entry) => entry.id)).not.toContain(session);
    expect(theirs.sessions.length).toBeGreaterThan(0);
    const operator = await fixture.client(TENANT, 'operator');
    const all = await operator.listSessions();
    expect(all.total).toBe(mine.total + theirs.total);
    // An operator reads a session, but does not act on it.
    expect((await operator.showSession(session)).session.id).toBe(session);
    await expect(operator.search(session, ['status'])).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  it('roles: a gateway does not read approvals or the audit; a session token changes no toolset', async () => {
    await expect(gateway.listApprovals()).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(gateway.recentActivity()).rejects.toMatchObject({ code: 'FORBIDDEN' });
    const sessionOnly = await as(token);
    await expect(sessionOnly.putToolset({ id: 'x', kind: 'plugin', label: 'x', tools: [] })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    await expect(sessionOnly.openSession({ grant: { toolsets: ['ops'] }, model })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
  });

  it("an operator-declared toolset cannot be replaced, deleted or shadowed by the tenant's requests", async () => {
    const replacement = { id: 'core', kind: 'plugin', label: 'core', tools: [{ name: 'rm_rf', description: 'x' }] };
    await expect(gateway.putToolset(replacement)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(gateway.deleteToolset('core')).rejects.toMatchObject({ code: 'FORBIDDEN' });
    const { toolsets } = await gateway.listToolsets();
    expect(toolsets.find((entry) => entry.id === 'core')?.tools).toBe(1);
    // The tenant's own toolsets remain its own.
    expect((await gateway.putToolset({ id: 'ops', kind: 'plugin', label: 'ops', tools: [] })).ok).toBe(true);
    expect((await gateway.deleteToolset('ops')).deleted).toBe(true);
  });
});
