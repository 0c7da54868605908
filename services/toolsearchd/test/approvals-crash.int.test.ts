import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JSONCodec } from 'nats';
import { afterAll, describe, expect, it } from 'vitest';
import type { ExecRequest } from '@toolsearch/proto';
import { cleanup, clientFor, daemonProcess, exited, tenantId, testConfig } from './harness';

const codec = JSONCodec<unknown>();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('held calls survive a crash', () => {
  const config = testConfig();
  const configPath = join(mkdtempSync(join(tmpdir(), 'toolsearchd-crash-')), 'config.json');
  writeFileSync(configPath, JSON.stringify({ ...config, log: { level: 'info' } }));
  const children: ChildProcess[] = [];
  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await Promise.all(children.map(exited));
    await cleanup(config);
  });

  it('kill -9 with 100 held calls: after a restart all are listed and decidable, each approved one runs once', async () => {
    const first = await daemonProcess(configPath);
    children.push(first);
    const tenant = tenantId('crash');
    const { nc, client } = await clientFor(tenant);
    // The plugin that owns the tool, counting how often each approved call reaches it.
    const runs = new Map<string, number>();
    nc.subscribe(`toolsearch.v1.${tenant}.exec.vault`, {
      callback: (error, message) => {
        if (error) return;
        const request = codec.decode(message.data) as ExecRequest;
        const id = request.approval_id ?? 'unapproved';
        runs.set(id, (runs.get(id) ?? 0) + 1);
        message.respond(codec.encode({ ok: true, data: { opened: request.arguments['box'] } }));
      },
    });
    try {
      await client.putToolset({
        id: 'vault',
        kind: 'plugin',
        label: 'vault',
        tools: [
          {
            name: 'open_box',
            description: 'Open a deposit box.',
            inputSchema: { type: 'object', properties: { box: { type: 'integer' } } },
            risk: 'high',
          },
        ],
      });
      const { session } = await client.openSession({
        grant: { toolsets: ['vault'] },
        model: { contextLength: 32_000 },
      });
      const held: string[] = [];
      for (let box = 0; box < 100; box += 1) {
        const { results } = await client.dispatch(session.id, [
          { id: `c${box}`, name: 'open_box', arguments: { box } },
        ]);
        expect(results[0]?.status).toBe('pending_approval');
        held.push(results[0]?.approval_id ?? '');
      }

      first.kill('SIGKILL');
      await exited(first);
      const second = await daemonProcess(configPath);
      children.push(second);

      const { approvals } = await client.listApprovals({ limit: 1000 });
      expect(approvals.map((approval) => approval.id).sort()).toEqual([...held].sort());
      expect(runs.size).toBe(0);
      // Approve 90 (each twice, concurrently: the first decision wins), deny 10.
      const decisions = approvals.flatMap((approval, index) => {
        const decision = {
          decision: index < 90 ? ('approve' as const) : ('deny' as const),
          by: 'ops-oncall',
          tool: approval.tool,
          digest: approval.digest,
        };
        return [client.decide(approval.id, decision), client.decide(approval.id, decision)];
      });
      const settled = await Promise.allSettled(decisions);
      expect(settled.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(100);

      const deadline = Date.now() + 20_000;
      let done = 0;
      while (Date.now() < deadline) {
        const states = await Promise.all(held.map((id) => client.getApproval(id)));
        done = states.filter((state) => state.approval.result !== undefined).length;
        if (done === 100) break;
        await sleep(100);
      }
      expect(done).toBe(100);
      await sleep(300);
      const approved = approvals.slice(0, 90).map((approval) => approval.id);
      expect([...runs.keys()].sort()).toEqual([...approved].sort());
      expect([...runs.values()].every((count) => count === 1)).toBe(true);
      const denied = await client.getApproval(approvals[95]?.id ?? '');
      expect(denied.approval).toMatchObject({ state: 'denied', result: { error: { code: 'DENIED' } } });
      expect((await client.listApprovals()).approvals).toEqual([]);
    } finally {
      await nc.close();
    }
  }, 90_000);
});
