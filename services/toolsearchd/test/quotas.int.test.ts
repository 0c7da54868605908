import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolsearchClient } from '@toolsearch/client';
import { ENDPOINTS, subject } from '@toolsearch/proto';
import { clientFor, daemonFixture, serveExec, tenantId } from './harness';

// Per-tenant quotas: a tenant at a limit gets QUOTA_EXCEEDED naming it, nothing changes, and
// other tenants do not notice.
const SMALL = tenantId('small');
const BUSY = tenantId('busy');
const OTHER = tenantId('other');
const CHURN = tenantId('churn');
const PACED = tenantId('paced');
const RACING = tenantId('racing');
const BYTES = tenantId('bytes');
const model = { contextLength: 128_000 };
const obj = { type: 'object', properties: {} };
const tool = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  description: `The ${name} tool.`,
  inputSchema: obj,
  ...extra,
});

describe('per-tenant quotas', () => {
  const fixture = daemonFixture({
    tenants: {
      [SMALL]: {
        quotas: { sessions: 3, toolsets: 2, tools: 5, toolsetBytes: 4096, mcpServers: 0, heldApprovals: 1 },
      },
      [BUSY]: { quotas: { requestsPerSecond: 20 } },
      [CHURN]: { quotas: { requestsPerSecond: 200 } },
      [PACED]: { quotas: { requestsPerSecond: 100 } },
      [RACING]: { quotas: { heldApprovals: 2 } },
      [BYTES]: { quotas: { sessionBytes: 64 * 1024 } },
    },
  });
  let small: ToolsearchClient;
  let other: ToolsearchClient;

  beforeAll(async () => {
    await fixture.start();
    small = await fixture.client(SMALL);
    other = await fixture.client(OTHER);
  }, 30_000);
  afterAll(() => fixture.stop());

  it('open sessions: the fourth is refused until one closes; another tenant opens freely', async () => {
    const opened = [];
    for (let i = 0; i < 3; i += 1) opened.push(await small.openSession({ grant: { toolsets: [] }, model }));
    const refused = await small.openSession({ grant: { toolsets: [] }, model }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'QUOTA_EXCEEDED' });
    expect((refused as Error).message).toContain("quota 'sessions'");
    expect((await small.listSessions()).total).toBe(3);
    for (let i = 0; i < 5; i += 1) await other.openSession({ grant: { toolsets: [] }, model });
    await small.closeSession(opened[0]?.session.id ?? '');
    expect((await small.openSession({ grant: { toolsets: [] }, model })).ok).toBe(true);
  });

  it("session bytes: a session's settings are bounded, and so are a tenant's sessions together; closing frees them", async () => {
    const bytes = await fixture.client(BYTES);
    // Core tools of some 20 KB each session: three fit the tenant's 64 KiB, a fourth does not.
    const coreTools = [tool('bulky', { description: 'x'.repeat(20_000) })];
    const opened = [];
    for (let i = 0; i < 3; i += 1) opened.push(await bytes.openSession({ grant: { toolsets: [] }, model, coreTools }));
    const refused = await bytes.openSession({ grant: { toolsets: [] }, model, coreTools }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'QUOTA_EXCEEDED' });
    expect((refused as Error).message).toContain("quota 'sessionBytes'");
    // Another tenant's sessions are not held back by it.
    expect((await other.openSession({ grant: { toolsets: [] }, model, coreTools })).ok).toBe(true);
    await bytes.closeSession(opened[0]?.session.id ?? '');
    expect((await bytes.openSession({ grant: { toolsets: [] }, model, coreTools })).ok).toBe(true);
    // One session's own settings past limits.maxSessionBytes (256 KiB): refused, whatever the quota.
    const huge = ['a', 'b', 'c'].map((name) => tool(`huge_${name}`, { description: 'y'.repeat(100_000) }));
    const tooBig = await other
      .openSession({ grant: { toolsets: [] }, model, coreTools: huge })
      .catch((e: unknown) => e);
    expect(tooBig).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    expect((tooBig as Error).message).toContain('limits.maxSessionBytes');
    const operator = await fixture.client(BYTES, 'operator');
    const { quotas } = await operator.showTenant();
    expect(quotas['sessionBytes']?.limit).toBe(64 * 1024);
    expect(quotas['sessionBytes']?.used).toBeGreaterThan(3 * 20_000);
    expect(quotas['sessionBytes']?.used).toBeLessThanOrEqual(64 * 1024);
  });

  it('toolsets, tools and bytes: refused past each limit, replacing one in place is fine', async () => {
    await small.putToolset({ id: 'one', kind: 'plugin', label: 'one', tools: [tool('a'), tool('b')] });
    await small.putToolset({ id: 'two', kind: 'plugin', label: 'two', tools: [tool('c')] });
    await expect(small.putToolset({ id: 'three', kind: 'plugin', label: 'three', tools: [] })).rejects.toMatchObject({
      code: 'QUOTA_EXCEEDED',
      message: expect.stringContaining("quota 'toolsets'"),
    });
    // Replacing 'two' with four tools would make six.
    await expect(
      small.putToolset({
        id: 'two',
        kind: 'plugin',
        label: 'two',
        tools: [tool('c'), tool('d'), tool('e'), tool('f')],
      }),
    ).rejects.toMatchObject({ code: 'QUOTA_EXCEEDED', message: expect.stringContaining("quota 'tools'") });
    await expect(
      small.putToolset({
        id: 'two',
        kind: 'plugin',
        label: 'two',
        tools: [tool('c', { description: 'x'.repeat(5000) })],
      }),
    ).rejects.toMatchObject({ code: 'QUOTA_EXCEEDED', message: expect.stringContaining("quota 'toolsetBytes'") });
    expect((await small.putToolset({ id: 'two', kind: 'plugin', label: 'two', tools: [tool('d')] })).ok).toBe(true);
    const { toolsets } = await small.listToolsets();
    expect(toolsets.map((toolset) => toolset.id).sort()).toEqual(['one', 'two']);
  });

  it('MCP servers: refused before any connection is made', async () => {
    await expect(
      small.call(ENDPOINTS.mcpAttach, {
        name: 'x',
        transport: { type: 'http', url: 'http://127.0.0.1:9/mcp' },
      }),
    ).rejects.toMatchObject({ code: 'QUOTA_EXCEEDED', message: expect.stringContaining("quota 'mcpServers'") });
  });

  it('held calls: past the limit a risky call is refused, not held and not run', async () => {
    const nc = await fixture.connection();
    const runs = await serveExec(nc, SMALL, 'one');
    await small.putToolset({
      id: 'one',
      kind: 'plugin',
      label: 'one',
      tools: [tool('drop_a', { risk: 'high' }), tool('drop_b', { risk: 'high' })],
    });
    const { session } = await small.openSession({ grant: { toolsets: ['one'] }, model }).catch(async () => {
      const { sessions } = await small.listSessions();
      await small.closeSession(sessions[0]?.id ?? '');
      return small.openSession({ grant: { toolsets: ['one'] }, model });
    });
    const first = await small.dispatch(session.id, [{ id: 'c1', name: 'drop_a', arguments: {} }]);
    expect(first.results[0]?.status).toBe('pending_approval');
    const second = await small.dispatch(session.id, [{ id: 'c2', name: 'drop_b', arguments: {} }]);
    expect(second.results[0]).toMatchObject({ ok: false, error: { code: 'QUOTA_EXCEEDED' } });
    expect((await small.listApprovals()).approvals).toHaveLength(1);
    expect(runs).toHaveLength(0);
  });

  it('held calls: risky calls arriving at once cannot together pass the limit', async () => {
    const racing = await fixture.client(RACING);
    const nc = await fixture.connection();
    const runs = await serveExec(nc, RACING, 'risky');
    const names = Array.from({ length: 6 }, (_, at) => `wipe_${at}`);
    await racing.putToolset({
      id: 'risky',
      kind: 'plugin',
      label: 'risky',
      tools: names.map((name) => tool(name, { risk: 'high' })),
    });
    // Six sessions (one session's turns run one after another), each holding one call at once:
    // each checked the count before any was stored, when the check and the hold were two steps.
    const sessions: string[] = [];
    for (let at = 0; at < names.length; at += 1)
      sessions.push((await racing.openSession({ grant: { toolsets: ['risky'] }, model })).session.id);
    const turns = await Promise.all(
      names.map((name, at) => racing.dispatch(sessions[at] ?? '', [{ id: `c${at}`, name, arguments: {} }])),
    );
    const statuses = turns.map((turn) =>
      turn.results[0]?.status === 'pending_approval' ? 'held' : turn.results[0]?.error?.code,
    );
    expect(statuses.filter((status) => status === 'held')).toHaveLength(2);
    expect(statuses.filter((status) => status === 'QUOTA_EXCEEDED')).toHaveLength(4);
    expect((await racing.listApprovals()).approvals).toHaveLength(2);
    expect(runs).toHaveLength(0);
  });

  it('requests per second: a burst past the limit is refused while another tenant is served', async () => {
    const busy = await fixture.client(BUSY);
    const outcomes = await Promise.allSettled(Array.from({ length: 60 }, () => busy.listToolsets()));
    const refused = outcomes.filter(
      (outcome) => outcome.status === 'rejected' && (outcome.reason as { code?: string }).code === 'QUOTA_EXCEEDED',
    );
    expect(refused.length).toBeGreaterThanOrEqual(30);
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled').length).toBeGreaterThan(0);
    // With its second full, a request is refused before its payload is even read (refusing must
    // cost little): text that is not JSON gets QUOTA_EXCEEDED, not BAD_REQUEST.
    const nc = await fixture.connection();
    let held = { afterMs: 0, windowLeftMs: 0 };
    const notJson = async () => {
      const sentAt = performance.now();
      const windowLeftMs = 1_000 - (Date.now() % 1_000);
      // The NATS client's default timeout (1 s): a held refusal must still come back within it.
      const raw = await nc.request(
        subject(ENDPOINTS.toolsetsList.template, { tenant: BUSY }),
        new TextEncoder().encode('{not json'),
      );
      held = { afterMs: performance.now() - sentAt, windowLeftMs };
      return (JSON.parse(new TextDecoder().decode(raw.data)) as { error?: { code?: string } }).error?.code;
    };
    // Early in a second, fill it, then ask once more: the refusal is held until the second turns
    // (at most 250 ms), so a client that retries at once is slowed to its quota's pace.
    let code: string | undefined;
    for (let attempt = 0; attempt < 5 && (code !== 'QUOTA_EXCEEDED' || held.windowLeftMs < 100); attempt++) {
      await new Promise((done) => setTimeout(done, 1_010 - (Date.now() % 1_000)));
      await Promise.allSettled(Array.from({ length: 25 }, () => busy.listToolsets()));
      code = await notJson();
    }
    expect(code).toBe('QUOTA_EXCEEDED');
    expect(held.afterMs).toBeGreaterThanOrEqual(Math.min(250, held.windowLeftMs) - 20);
    expect(held.afterMs).toBeLessThan(600);
    const others = await Promise.all(Array.from({ length: 60 }, () => other.listToolsets()));
    expect(others.every((reply) => reply.ok)).toBe(true);
    // The next second has room again.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await busy.listToolsets()).ok).toBe(true);
  });

  it('requests per second are weighted: session opens use the second up twenty times faster than searches', async () => {
    // A limit of 200: ten opens fill a second that would take 200 listings.
    const churner = await fixture.client(CHURN);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 30 }, () => churner.openSession({ grant: { toolsets: [] }, model })),
    );
    const opened = outcomes.filter((outcome) => outcome.status === 'fulfilled').length;
    const refused = outcomes.filter(
      (outcome) => outcome.status === 'rejected' && (outcome.reason as { code?: string }).code === 'QUOTA_EXCEEDED',
    );
    // The window may turn over during the burst: at most two seconds' worth of opens get through.
    expect(opened).toBeGreaterThan(0);
    expect(opened).toBeLessThanOrEqual(20);
    expect(refused.length).toBe(30 - opened);
    expect((refused[0] as PromiseRejectedResult | undefined)?.reason).toMatchObject({
      message: expect.stringContaining('this one counts 20'),
    });
  });

  it("requests per second are paced: past its burst a tenant's requests wait their turn, and another tenant's do not wait behind them", async () => {
    // A limit of 100: 50 at once, then one every 10 ms; a request may wait up to 500 ms for its turn.
    const paced = await fixture.client(PACED);
    await new Promise((done) => setTimeout(done, 1_010 - (Date.now() % 1_000)));
    const started = performance.now();
    const timed = <T>(promise: Promise<T>) => promise.then((value) => ({ value, atMs: performance.now() - started }));
    const burst = Array.from({ length: 70 }, () => timed(paced.listToolsets()));
    const others = timed(other.listToolsets());
    const answered = await Promise.all(burst);
    const otherAnswer = await others;
    // Every one within its quota is served, none refused...
    expect(answered.every(({ value }) => value.ok)).toBe(true);
    // ...but spread: the last twenty over about 200 ms (on the code before, all within a few ms;
    // a slow machine only makes the last later).
    const times = answered.map(({ atMs }) => atMs).sort((a, b) => a - b);
    expect(times[69] ?? 0).toBeGreaterThanOrEqual(150);
    // The other tenant's request, sent after all seventy, is not queued behind the waiting ones.
    expect(otherAnswer.value.ok).toBe(true);
    expect(otherAnswer.atMs).toBeLessThan(times[69] ?? 0);
  });

  it('operators see usage against each quota', async () => {
    const operator = await fixture.client(SMALL, 'operator');
    const { quotas } = await operator.showTenant();
    expect(quotas['sessions']).toMatchObject({ limit: 3 });
    expect(quotas['sessions']?.used).toBeGreaterThanOrEqual(1);
    expect(quotas['toolsets']).toEqual({ used: 2, limit: 2 });
    expect(quotas['heldApprovals']).toEqual({ used: 1, limit: 1 });
    expect(Object.keys(quotas).sort()).toEqual(
      [
        'heldApprovals',
        'mcpServers',
        'requestsPerSecond',
        'sessionBytes',
        'sessions',
        'toolsetBytes',
        'tools',
        'toolsets',
      ].sort(),
    );
    const gateway = await fixture.client(SMALL, 'gateway');
    await expect(gateway.showTenant()).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });
});

// Its own daemon, once the one above has stopped: every daemon on the test NATS answers a
// tenant's subjects, and the one above would answer this tenant without its quota.
describe('held refusals', () => {
  it('a daemon that stops sends the refusals it still holds: no client is left to time out', async () => {
    const tenant = tenantId('held');
    const own = daemonFixture({ tenants: { [tenant]: { quotas: { requestsPerSecond: 5 } } } });
    const daemon = await own.start();
    // A connection of the test's own: the fixture's `stop()` closes its clients before the daemon.
    const { nc, client } = await clientFor(tenant);
    try {
      // Early in a second, so that the refusals would be held for 250 ms.
      await new Promise((done) => setTimeout(done, 1_010 - (Date.now() % 1_000)));
      // The first burst spends the second (its last three are refused by the handler, and held)...
      await Promise.allSettled(Array.from({ length: 8 }, () => client.listToolsets()));
      // ...so these are refused early, and held.
      const started = performance.now();
      const burst = Array.from({ length: 10 }, () =>
        client.listToolsets().then(
          () => ({ code: 'ok', atMs: performance.now() - started }),
          (error: { code?: string }) => ({ code: error.code ?? 'ERROR', atMs: performance.now() - started }),
        ),
      );
      await new Promise((done) => setTimeout(done, 50));
      await daemon.close();
      const outcomes = await Promise.all(burst);
      expect(outcomes.map((outcome) => outcome.code)).toEqual(Array.from({ length: 10 }, () => 'QUOTA_EXCEEDED'));
      // Sent as the daemon stopped, not when their 250 ms were up.
      expect(Math.max(...outcomes.map((outcome) => outcome.atMs))).toBeLessThan(200);
      expect(Math.min(...outcomes.map((outcome) => outcome.atMs))).toBeGreaterThanOrEqual(45);
    } finally {
      await nc.close();
      await own.stop();
    }
  });

  it('a daemon that stops answers the requests waiting for their turn UNAVAILABLE at once', async () => {
    const tenant = tenantId('waiting');
    // A limit of 100: 50 at once, then one every 10 ms.
    const own = daemonFixture({ tenants: { [tenant]: { quotas: { requestsPerSecond: 100 } } } });
    const daemon = await own.start();
    const { nc, client } = await clientFor(tenant);
    try {
      await new Promise((done) => setTimeout(done, 1_010 - (Date.now() % 1_000)));
      const started = performance.now();
      // 50 run at once, the other 45 wait their turns, the last about 450 ms away.
      const sent = Array.from({ length: 95 }, () =>
        client.listToolsets().then(
          () => ({ code: 'ok', atMs: performance.now() - started }),
          (error: { code?: string }) => ({ code: error.code ?? 'ERROR', atMs: performance.now() - started }),
        ),
      );
      await new Promise((done) => setTimeout(done, 100));
      const closedAt = performance.now() - started;
      await daemon.close();
      const outcomes = await Promise.all(sent);
      const codes = new Set(outcomes.map((outcome) => outcome.code));
      expect([...codes].sort()).toEqual(['UNAVAILABLE', 'ok']);
      // Those whose turn had not come when the daemon began to stop (about 30 of them; fewer on a
      // slow machine, whose timer fires late)...
      expect(outcomes.filter((outcome) => outcome.code === 'UNAVAILABLE').length).toBeGreaterThanOrEqual(10);
      // ...are answered as it stops, not at their turns and never left to time out.
      expect(Math.max(...outcomes.map((outcome) => outcome.atMs)) - closedAt).toBeLessThan(200);
    } finally {
      await nc.close();
      await own.stop();
    }
  });

  it('a request whose weight does not fit the rest of the second is refused by the handler, and held like an early refusal', async () => {
    const tenant = tenantId('weighed');
    const own = daemonFixture({ tenants: { [tenant]: { quotas: { requestsPerSecond: 5 } } } });
    await own.start();
    const { nc, client } = await clientFor(tenant);
    try {
      let outcome = { code: '', afterMs: 0, windowLeftMs: 0 };
      for (
        let attempt = 0;
        attempt < 5 && (outcome.code !== 'QUOTA_EXCEEDED' || outcome.windowLeftMs < 300);
        attempt++
      ) {
        await new Promise((done) => setTimeout(done, 1_010 - (Date.now() % 1_000)));
        // Four of the second's five: the window is not full, so nothing is refused early...
        for (let i = 0; i < 4; i += 1) await client.listToolsets();
        // ...but a put counts five (its weight, capped at the limit): the handler refuses it.
        const windowLeftMs = 1_000 - (Date.now() % 1_000);
        const sentAt = performance.now();
        const code = await client.putToolset({ id: 'w', kind: 'plugin', label: 'w', tools: [tool('w')] }).then(
          () => 'ok',
          (error: { code?: string }) => error.code ?? 'ERROR',
        );
        outcome = { code, afterMs: performance.now() - sentAt, windowLeftMs };
      }
      expect(outcome.code).toBe('QUOTA_EXCEEDED');
      expect(outcome.afterMs).toBeGreaterThanOrEqual(Math.min(250, outcome.windowLeftMs) - 20);
      expect(outcome.afterMs).toBeLessThan(600);
    } finally {
      await nc.close();
      await own.stop();
    }
  });
});
