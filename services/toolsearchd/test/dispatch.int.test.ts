import { Worker } from 'bullmq';
import { Redis } from 'ioredis';
import type { NatsConnection } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolsearchClient } from '@toolsearch/client';
import {
  ENDPOINTS,
  WorkerJobSchema,
  type ToolsearchWireError,
  type ActivityEvent,
  type ResultEvent,
} from '@toolsearch/proto';
import type { Daemon } from '../src/daemon';
import { RedisKeys } from '../src/redis-keys';
import { dispatchFixture, obj, OTHER, SHORT, sleep, TENANT, type DispatchWorld } from './dispatch-fixture';
import { collect, eventually } from './harness';

describe('dispatch, approvals and worker jobs', () => {
  const { fixture, hookSeen, mcpCalls, start } = dispatchFixture();
  let daemon: Daemon;
  let client: ToolsearchClient;
  let operator: ToolsearchClient;
  let nc: NatsConnection;
  let ops: DispatchWorld['ops'];
  let gateway: string;
  let gatewayToken: string;

  beforeAll(async () => {
    ({ daemon, client, operator, nc, ops, gateway, gatewayToken } = await start());
  }, 30_000);
  afterAll(() => fixture.stop());

  it('runs 8 parallel-safe calls of 100 ms together, in well under 8 × 100 ms', async () => {
    const activity = collect<ActivityEvent>(16);
    const sub = client.onActivity(gateway, activity.push);
    await nc.flush();
    const started = Date.now();
    const calls = Array.from({ length: 8 }, () => ({ name: 'sleep', arguments: { delay_ms: 100 } }));
    const { results } = await client.dispatch(gateway, [{ id: 'c1', name: 'tool_call', arguments: { calls } }]);
    const elapsed = Date.now() - started;
    expect(elapsed).toBeLessThan(400);
    expect(results[0]).toMatchObject({ id: 'c1', ok: true, status: 'done' });
    const entries = (results[0]?.data as { results: { ok: boolean; tool: string }[] }).results;
    expect(entries).toHaveLength(8);
    expect(entries.every((entry) => entry.ok && entry.tool === 'sleep')).toBe(true);
    const events = await activity.done;
    sub.unsubscribe();
    // Hooks and the activity feed see the real tool, never the tool_call wrapper.
    expect(new Set(events.map((event) => event.tool))).toEqual(new Set(['sleep']));
    expect(events.filter((event) => event.phase === 'finish')).toHaveLength(8);
    expect(hookSeen).not.toContain('tool_call');
  });

  it('keeps two writes in call order behind a barrier, and one failure does not cancel its siblings', async () => {
    const before = ops.calls.length;
    const { results } = await client.dispatch(gateway, [
      { id: 'w1', name: 'write_row', arguments: { row: 1, delay_ms: 150 } },
      { id: 'w2', name: 'write_row', arguments: JSON.stringify({ row: 2 }) },
      { id: 'r1', name: 'tool_call', arguments: { calls: [{ name: 'files__fail' }, { name: 'sleep' }] } },
    ]);
    const writes = ops.calls.slice(before).filter((call) => call.request.tool === 'write_row');
    expect(writes.map((call) => call.request.arguments['row'])).toEqual([1, 2]);
    expect(writes[1]?.started).toBeGreaterThanOrEqual(writes[0]?.finished ?? Infinity);
    expect(results.map((result) => result.id)).toEqual(['w1', 'w2', 'r1']);
    const entries = (results[2]?.data as { results: { ok: boolean; error: { code: string } | null }[] }).results;
    expect(entries[0]).toMatchObject({ ok: false, error: { code: 'TOOL_ERROR', message: 'this tool always fails' } });
    expect(entries[1]?.ok).toBe(true);
    expect(results[2]).toMatchObject({ ok: false, error: { code: 'PARTIAL_FAILURE' } });
  });

  it('answers NO_EXECUTOR at once when nobody serves a toolset, and TIMEOUT-free otherwise', async () => {
    const started = Date.now();
    const { results } = await client.dispatch(gateway, [{ id: 'g', name: 'haunt', arguments: {} }]);
    expect(results[0]).toMatchObject({ ok: false, error: { code: 'NO_EXECUTOR' } });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('applies hooks, guardrails and rate limits to the real tool', async () => {
    const { results } = await client.dispatch(gateway, [
      { id: 'h1', name: 'redacted_echo', arguments: { text: 'secret' } },
      { id: 'h2', name: 'tool_call', arguments: { calls: [{ name: 'write_row', arguments: { text: 'block me' } }] } },
      { id: 'p1', name: 'forbidden_launch', arguments: {} },
      { id: 'l1', name: 'ping' },
      { id: 'l2', name: 'ping' },
      { id: 'l3', name: 'ping' },
    ]);
    expect(results[0]).toMatchObject({ ok: true, data: { shaped: { arguments: { text: '[redacted]' } } } });
    const blocked = (results[1]?.data as { results: { error: { code: string } }[] }).results[0];
    expect(blocked?.error.code).toBe('BLOCKED_BY_HOOK');
    expect(results[2]).toMatchObject({ ok: false, error: { code: 'BLOCKED_BY_POLICY' } });
    expect(results.slice(3).map((result) => result.error?.code ?? 'ok')).toEqual(['ok', 'ok', 'RATE_LIMITED']);
  });

  it('holds a destructive call; an approver approves it; it runs exactly once and publishes its result', async () => {
    const result = collect<ResultEvent>(1);
    const sub = client.onResult(gateway, result.push);
    await nc.flush();
    const { results } = await client.dispatch(gateway, [
      {
        id: 'd1',
        name: 'tool_call',
        arguments: { calls: [{ name: 'files__delete_file', arguments: { path: '/x' } }] },
      },
    ]);
    const entry = (results[0]?.data as { results: { status: string; approval_id?: string }[] }).results[0];
    expect(results[0]?.status).toBe('pending_approval');
    expect(entry?.status).toBe('pending_approval');
    const id = entry?.approval_id ?? '';
    expect(mcpCalls('delete_file')).toHaveLength(0);

    const { approvals } = await operator.listApprovals({ tool: '*delete_file' });
    const held = approvals.find((approval) => approval.id === id);
    expect(held).toMatchObject({
      tool: 'files__delete_file',
      arguments: { path: '/x' },
      requester: gateway,
      state: 'pending',
    });
    expect(held?.reason).toContain('destructiveHint');
    const digest = held?.digest ?? '';

    // The session itself may not approve (its token is no approver credential, whatever `by` says);
    // a decision for other arguments decides nothing.
    const asSession = new ToolsearchClient(nc, TENANT, { credential: gatewayToken });
    await expect(
      asSession.decide(id, { decision: 'approve', by: 'alice', tool: 'files__delete_file', digest }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(
      operator.decide(id, { decision: 'approve', by: 'alice', tool: 'files__delete_file', digest: '0'.repeat(64) }),
    ).rejects.toMatchObject({ code: 'DECISION_MISMATCH' });
    // Another tenant cannot see or decide it.
    const other = await fixture.client(OTHER);
    expect((await other.listApprovals()).approvals).toEqual([]);
    await expect(
      other.decide(id, { decision: 'approve', by: 'mallory', tool: 'files__delete_file', digest }),
    ).rejects.toMatchObject({ code: 'APPROVAL_NOT_FOUND' });

    // Two approvals race: one wins, the call runs once.
    const decisions = await Promise.allSettled([
      operator.decide(id, { decision: 'approve', by: 'alice', reason: 'cleanup', tool: 'files__delete_file', digest }),
      operator.decide(id, { decision: 'approve', by: 'bob', tool: 'files__delete_file', digest }),
    ]);
    expect(decisions.filter((d) => d.status === 'fulfilled')).toHaveLength(1);
    const loser = decisions.find((d) => d.status === 'rejected') as PromiseRejectedResult;
    expect((loser.reason as ToolsearchWireError).code).toBe('ALREADY_DECIDED');
    const [event] = await result.done;
    sub.unsubscribe();
    expect(event).toMatchObject({ approval_id: id, call_id: 'd1', tool: 'files__delete_file', result: { ok: true } });
    await sleep(200);
    expect(mcpCalls('delete_file')).toEqual([{ name: 'delete_file', arguments: { path: '/x' } }]);
    const { approval } = await operator.getApproval(id);
    expect(approval).toMatchObject({ state: 'done', decision: { decision: 'approve' }, result: { ok: true } });
    // What the finished call keeps in Redis counts against its tenant's byte budget.
    const redis = new Redis(fixture.config.redis.url);
    const finished = await eventually(async () => {
      const members = await redis.zrange(
        new RedisKeys(fixture.config.namespace.redisPrefix).tenant(TENANT, 'approvals-finished'),
        0,
        -1,
      );
      expect(members).toContain(id);
      return members;
    }).finally(() => redis.disconnect());
    expect(finished.length).toBeGreaterThan(0);
    const audit = await daemon.dispatchService.audit.recent(TENANT, 50);
    expect(audit.some((record) => record.approvalId === id && record.outcome === 'ok')).toBe(true);
    expect(audit.some((record) => record.approvalId === id && record.outcome === 'pending_approval')).toBe(true);
  });

  it('denied calls fail with DENIED and never run; later writes of the turn wait their turn', async () => {
    const before = ops.calls.length;
    const { results } = await client.dispatch(gateway, [
      { id: 'x1', name: 'drop_table', arguments: { table: 'users' } },
      { id: 'x2', name: 'write_row', arguments: { row: 3 } },
    ]);
    expect(results[0]).toMatchObject({ status: 'pending_approval', error: { code: 'PENDING_APPROVAL' } });
    expect(results[1]).toMatchObject({ ok: false, error: { code: 'NOT_RUN' } });
    const id = results[0]?.approval_id ?? '';
    const { approval } = await operator.getApproval(id);
    const decided = await operator.decide(id, {
      decision: 'deny',
      by: 'alice',
      reason: 'not today',
      tool: 'drop_table',
      digest: approval.digest,
      wait_ms: 3000,
    });
    expect(decided.approval).toMatchObject({ state: 'denied', result: { ok: false, error: { code: 'DENIED' } } });
    expect(decided.approval.result?.error?.message).toContain('not today');
    expect(ops.calls.slice(before)).toHaveLength(0);
  });

  it('wait_ms returns the decided result inside the dispatch reply', async () => {
    const pending = client.dispatch(gateway, [{ id: 'y1', name: 'drop_table', arguments: { table: 'tmp' } }], {
      waitMs: 4000,
    });
    let held;
    for (let i = 0; i < 50 && held === undefined; i += 1) {
      held = (await operator.listApprovals({ session: gateway, tool: 'drop_table' })).approvals.find(
        (approval) => approval.call_id === 'y1',
      );
      if (held === undefined) await sleep(20);
    }
    expect(held).toBeDefined();
    await operator.decide(held?.id ?? '', {
      decision: 'approve',
      by: 'alice',
      tool: 'drop_table',
      digest: held?.digest ?? '',
    });
    const { results } = await pending;
    expect(results[0]).toMatchObject({ ok: true, status: 'done', approval_id: held?.id, data: { ran: 'drop_table' } });
  });

  it('expires undecided calls: EXPIRED, and a late decision changes nothing', async () => {
    const short = await fixture.client(SHORT);
    await short.putToolset({
      id: 'danger',
      kind: 'plugin',
      label: 'danger',
      tools: [{ name: 'launch', description: 'Launch.', inputSchema: obj, risk: 'high' }],
    });
    const { session } = await short.openSession({ grant: { toolsets: ['danger'] }, model: { contextLength: 8000 } });
    const result = collect<ResultEvent>(1, 5000);
    const sub = short.onResult(session.id, result.push);
    await nc.flush();
    const { results } = await short.dispatch(session.id, [{ id: 'e1', name: 'launch' }]);
    const id = results[0]?.approval_id ?? '';
    const [event] = await result.done;
    sub.unsubscribe();
    expect(event?.result).toMatchObject({ ok: false, error: { code: 'EXPIRED' } });
    const { approval } = await short.getApproval(id);
    await expect(
      short.decide(id, { decision: 'approve', by: 'alice', tool: 'launch', digest: approval.digest }),
    ).rejects.toMatchObject({ code: 'ALREADY_DECIDED' });
    expect((await short.listApprovals()).approvals).toEqual([]);
  });

  it('a worker takes a subagent job and reaches only its granted tools; reaching further is blocked and audited', async () => {
    const spawned = await client.spawn({
      parent: gateway,
      role: 'subagent',
      grant: { toolsets: ['ops'], allow: ['sleep'] },
      task: { goal: 'nap briefly' },
    });
    expect(spawned.job.queue).toBe(`subagent-${TENANT}`);
    await expect(
      client.spawn({ parent: gateway, role: 'subagent', grant: { toolsets: ['ops', 'secret'] }, task: {} }),
    ).rejects.toMatchObject({ code: 'GRANT_EXCEEDS_PARENT' });

    const connection = new Redis(fixture.config.redis.url, { maxRetriesPerRequest: null });
    const worker = new Worker(
      spawned.job.queue,
      async (job) => {
        const task = WorkerJobSchema.parse(job.data);
        await job.updateProgress(10);
        const found = await client.search(task.session, ['delete file']);
        const run = await client.dispatch(task.session, [
          { id: 'a', name: 'tool_call', arguments: { calls: [{ name: 'sleep', arguments: { delay_ms: 1 } }] } },
          { id: 'b', name: 'tool_call', arguments: { calls: [{ name: 'files__delete_file', arguments: {} }] } },
          { id: 'c', name: 'write_row', arguments: {} },
        ]);
        return { task: task.task, found: found.result, results: run.results };
      },
      { connection, prefix: spawned.job.prefix },
    );
    const done = new Promise<Record<string, unknown>>((resolve, reject) => {
      worker.on('completed', (_job, value: Record<string, unknown>) => resolve(value));
      worker.on('failed', (_job, error) => reject(error));
    });
    try {
      const value = (await done) as {
        task: unknown;
        found: { results: { matches: string[] }[] };
        results: {
          ok: boolean;
          data: { results?: { ok: boolean; error: { code: string } | null }[] };
          error: { code: string } | null;
        }[];
      };
      expect(value.task).toEqual({ goal: 'nap briefly' });
      expect(value.found.results[0]?.matches).toEqual([]);
      expect(value.results[0]?.ok).toBe(true);
      // Outside the grant the tool does not exist for the child: it cannot even learn the name is real.
      expect(value.results[1]?.data.results?.[0]?.error?.code).toBe('UNKNOWN_TOOL');
      expect(value.results[2]?.error?.code).toMatch(/NOT_IN_SESSION|UNKNOWN_TOOL/);
    } finally {
      await worker.close();
      connection.disconnect();
    }
    const audit = await daemon.dispatchService.audit.recent(TENANT, 50);
    expect(
      audit.find((record) => record.session === spawned.session.id && record.tool === 'files__delete_file'),
    ).toMatchObject({ outcome: 'blocked:UNKNOWN_TOOL' });
    expect(mcpCalls('delete_file')).toHaveLength(1);
  }, 20_000);

  it('refuses malformed dispatches with a clear error and keeps serving', async () => {
    await expect(client.call(ENDPOINTS.sessionsDispatch, { calls: [] }, { session: gateway })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
    await expect(client.getApproval('a-nope-nope-nope-nope-nope')).rejects.toMatchObject({
      code: 'APPROVAL_NOT_FOUND',
    });
    const { results } = await client.dispatch(gateway, [{ id: 'ok', name: 'ping' }]);
    expect(results[0]?.id).toBe('ok');
  });
});
