import { createHash } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolsearchClient } from '@toolsearch/client';
import type { ExecRequest, ToolsearchWireError } from '@toolsearch/proto';
import type { Daemon } from '../src/daemon';
import type { DispatchHooks } from '../src/dispatch/turn-types';
import { daemonFixture, serveExec, startDaemon, tenantId, TEST_KEYS } from './harness';

// Every way we know to get a held call to run without the approval it needs, or to run twice.
const obj = { type: 'object', properties: {} };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const TENANT = tenantId('bypass');
const API_KEY = 'tsk_bypass_test_key_000000000000';

describe('approvals cannot be bypassed', () => {
  const fixture = daemonFixture({
    // MCP calls answer at once with their held call's id (mcp-front-door tests follow one).
    http: { port: 0, heldCallWaitMs: 0 },
    tenants: {
      [TENANT]: {
        policy: { approval: { approvers: ['alice', 'bob'] } },
        apiKeys: [
          {
            name: 'agent',
            sha256: createHash('sha256').update(API_KEY).digest('hex'),
            grant: { toolsets: ['ops'] },
          },
        ],
      },
    },
  });
  let daemon: Daemon;
  let replica: Daemon;
  let client: ToolsearchClient;
  let approvers: Record<'alice' | 'bob', ToolsearchClient>;
  let session: string;
  let sessionToken: string;
  let runs: ExecRequest[] = [];
  const ranWith = (table: string) =>
    runs.filter((run) => run.tool === 'drop_table' && run.arguments['table'] === table);

  beforeAll(async () => {
    // A hook that rewrites arguments: the approval must bind to what will actually run.
    const hooks: DispatchHooks[] = [
      { before: (call) => (call.arguments['table'] === 'alias' ? { arguments: { table: 'real_target' } } : undefined) },
    ];
    daemon = await fixture.start(hooks);
    // A second replica on the same deployment (queue group, Redis, bucket), with the same hooks.
    replica = await startDaemon(fixture.config, hooks);
    client = await fixture.client(TENANT);
    approvers = { alice: await fixture.client(TENANT, 'alice'), bob: await fixture.client(TENANT, 'bob') };
    const nc = await fixture.connection();
    runs = await serveExec(nc, TENANT, 'ops', (request) => ({ ran: request.tool, arguments: request.arguments }));
    await client.putToolset({
      id: 'ops',
      kind: 'plugin',
      label: 'ops',
      tools: [
        { name: 'drop_table', description: 'Drop a database table.', inputSchema: obj, risk: 'high' },
        { name: 'table_stats', description: 'Row counts.', inputSchema: obj, annotations: { readOnlyHint: true } },
      ],
    });
    ({
      session: { id: session },
      token: sessionToken,
    } = await client.openSession({ grant: { toolsets: ['ops'] }, model: { contextLength: 128_000 } }));
  }, 30_000);
  afterAll(async () => {
    await replica.close();
    await fixture.stop();
  });

  async function held(table: string, id = `c-${table}`): Promise<string> {
    const { results } = await client.dispatch(session, [{ id, name: 'drop_table', arguments: { table } }]);
    expect(results[0]?.status).toBe('pending_approval');
    return results[0]?.approval_id ?? '';
  }

  /** Approves a held call as `by`, quoting the tool and digest it holds, and waits for its run. */
  async function approveAndWait(id: string, by: 'alice' | 'bob'): Promise<void> {
    const { approval } = await client.getApproval(id);
    await approvers[by].decide(id, {
      decision: 'approve',
      tool: approval.tool,
      digest: approval.digest,
      wait_ms: 5000,
    });
  }

  it('a batch: the risky entry is held, the safe ones run, nothing of the risky one runs', async () => {
    const { results } = await client.dispatch(session, [
      {
        id: 'b1',
        name: 'tool_call',
        arguments: {
          calls: [
            { name: 'table_stats', arguments: { table: 'batch' } },
            { name: 'drop_table', arguments: { table: 'batch' } },
            { name: 'table_stats', arguments: { table: 'batch2' } },
          ],
        },
      },
      { id: 'b2', name: 'drop_table', arguments: { table: 'batch' } },
    ]);
    const entries = (results[0]?.data as { results: { status: string; ok: boolean }[] }).results;
    // The safe call before the held one ran; the one after it waits (NOT_RUN) rather than overtake it.
    expect(entries.map((entry) => entry.status)).toEqual(['done', 'pending_approval', 'done']);
    expect(entries.map((entry) => entry.ok)).toEqual([true, false, false]);
    // The later risky call of the same turn does not overtake the held one.
    expect(results[1]).toMatchObject({ ok: false, error: { code: 'NOT_RUN' } });
    await sleep(200);
    expect(ranWith('batch')).toHaveLength(0);
    expect(runs.filter((run) => run.tool === 'table_stats').map((run) => run.arguments)).toEqual([{ table: 'batch' }]);
  });

  it('retries: the same call sent again is held again, never run; approving one runs only that one', async () => {
    const first = await held('retry', 'same-id');
    const second = await held('retry', 'same-id');
    expect(second).not.toBe(first);
    await sleep(200);
    expect(ranWith('retry')).toHaveLength(0);
    await approveAndWait(first, 'alice');
    await sleep(200);
    expect(ranWith('retry')).toHaveLength(1);
    expect((await client.getApproval(second)).approval.state).toBe('pending');
  });

  it('renamed tools: other spellings of the name are refused or held, never run', async () => {
    const names = ['DROP_TABLE', 'ops__drop_table', 'ops/drop_table', 'drop_table ', 'drop-table'];
    const { results } = await client.dispatch(
      session,
      names.map((name, index) => ({
        id: `r${index}`,
        name: 'tool_call',
        arguments: { name, arguments: { table: 'renamed' } },
      })),
    );
    for (const result of results) {
      const entry = (result.data as { results: { ok: boolean; status: string }[] }).results[0];
      expect(entry?.ok).toBe(false);
    }
    await sleep(200);
    expect(ranWith('renamed')).toHaveLength(0);
  });

  it('a hook that rewrites the arguments: the approver sees, and the call runs with, the rewritten ones', async () => {
    const id = await held('alias');
    expect((await client.getApproval(id)).approval.arguments).toEqual({ table: 'real_target' });
    await approveAndWait(id, 'bob');
    await sleep(200);
    expect(ranWith('real_target')).toHaveLength(1);
    expect(ranWith('alias')).toHaveLength(0);
  });

  it('a decision replayed for other arguments decides nothing; replayed for the same call it is refused', async () => {
    const a = await held('replay_a');
    const b = await held('replay_b');
    const { approval: heldA } = await client.getApproval(a);
    const decisionForA = { decision: 'approve' as const, tool: heldA.tool, digest: heldA.digest };
    const { alice } = approvers;
    await expect(alice.decide(b, decisionForA)).rejects.toMatchObject({ code: 'DECISION_MISMATCH' });
    expect((await client.getApproval(b)).approval.state).toBe('pending');
    await alice.decide(a, { ...decisionForA, wait_ms: 5000 });
    await expect(alice.decide(a, decisionForA)).rejects.toMatchObject({ code: 'ALREADY_DECIDED' });
    await sleep(200);
    expect(ranWith('replay_a')).toHaveLength(1);
    expect(ranWith('replay_b')).toHaveLength(0);
  });

  it('two replicas, ten concurrent approvals of one call: one decision wins and the call runs once', async () => {
    const id = await held('race');
    const { approval } = await client.getApproval(id);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 10 }, (_, index) =>
        (index % 2 === 0 ? approvers.alice : approvers.bob).decide(id, {
          decision: 'approve',
          tool: approval.tool,
          digest: approval.digest,
        }),
      ),
    );
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    for (const outcome of outcomes)
      if (outcome.status === 'rejected') expect((outcome.reason as ToolsearchWireError).code).toBe('ALREADY_DECIDED');
    await sleep(1000);
    expect(ranWith('race')).toHaveLength(1);
  });

  it('only a verified approver decides: not the requester, its child, a gateway, nor a `by` field', async () => {
    const id = await held('self');
    const { approval } = await client.getApproval(id);
    const { session: child, token: childToken } = await client.openSession({
      role: 'subagent',
      parent: session,
      grant: { toolsets: ['ops'] },
      model: { contextLength: 128_000 },
    });
    const nc = await fixture.connection();
    const as = (credential: string | undefined) =>
      new ToolsearchClient(nc, TENANT, credential === undefined ? {} : { credential });
    const decision = { decision: 'approve' as const, tool: approval.tool, digest: approval.digest };
    // The requesting session's own token and its child's, naming a configured approver as `by`
    // (or spelled in any other way): refused, whatever the field says.
    for (const by of ['alice', session, session.toUpperCase(), ` ${session}`, child.id])
      for (const credential of [sessionToken, childToken])
        await expect(as(credential).decide(id, { ...decision, by })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    // A gateway credential, an operator, and an approver key outside the policy's approvers.
    // A token that is no session's is no approver either.
    for (const credential of [TEST_KEYS.gateway, TEST_KEYS.operator, TEST_KEYS.test, 'tst_forged'])
      await expect(as(credential).decide(id, { ...decision, by: 'alice' })).rejects.toMatchObject({
        code: 'FORBIDDEN',
      });
    // No credential, or a made-up one.
    for (const credential of [undefined, 'tsk_made-up-key-000000000000000000000'])
      await expect(as(credential).decide(id, { ...decision, by: 'alice' })).rejects.toMatchObject({
        code: 'UNAUTHENTICATED',
      });
    expect(child.id).not.toBe(session);
    await sleep(200);
    expect(ranWith('self')).toHaveLength(0);
    expect((await client.getApproval(id)).approval.state).toBe('pending');
    // The approver's decision is recorded under its verified name, not the field it sent.
    const { approval: decided } = await approvers.bob.decide(id, { ...decision, by: 'mallory', wait_ms: 5000 });
    expect(decided.decision?.by).toBe('bob');
  });

  it('the MCP endpoint: a direct call and a tool_call of a risky tool are both held', async () => {
    const transport = new StreamableHTTPClientTransport(new URL(`${daemon.httpAddress}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${API_KEY}` } },
    });
    const mcp = new Client({ name: 'bypass', version: '1.0.0' });
    await mcp.connect(transport);
    try {
      const direct = (await mcp.callTool({ name: 'drop_table', arguments: { table: 'mcp' } })) as CallToolResult;
      const bridged = (await mcp.callTool({
        name: 'tool_call',
        arguments: { name: 'drop_table', arguments: { table: 'mcp' } },
      })) as CallToolResult;
      expect(direct._meta?.['toolsearch/status']).toBe('pending_approval');
      expect(bridged._meta?.['toolsearch/status']).toBe('pending_approval');
      await sleep(200);
      expect(ranWith('mcp')).toHaveLength(0);
    } finally {
      await transport.terminateSession().catch(() => undefined);
      await mcp.close();
    }
  });
});
