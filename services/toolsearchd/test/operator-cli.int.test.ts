import { execFile, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { NatsConnection } from 'nats';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { ToolsearchClient } from '@toolsearch/client';
import type { ExecRequest } from '@toolsearch/proto';
import { daemonFixture, freePort, NATS_URL, serveExec, tenantId, TEST_KEYS } from './harness';

// The operator commands are exercised as users run them: the `toolsearch` binary as a process,
// talking to a running daemon over NATS.
const CLI = fileURLToPath(new URL('../../toolsearch-cli/bin/toolsearch.mjs', import.meta.url));
const obj = { type: 'object', properties: {} };

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

function cli(args: readonly string[], env: Record<string, string> = {}): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      // A read-only operator's key unless the test says otherwise.
      {
        env: { ...process.env, TOOLSEARCH_NATS_URL: NATS_URL, TOOLSEARCH_CREDENTIAL: TEST_KEYS.operator, ...env },
        timeout: 30_000,
      },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

const TENANT = tenantId('ops');

describe('operator commands against a running daemon', () => {
  const fixture = daemonFixture({ tenants: { [TENANT]: { policy: { approval: { approvers: ['alice'] } } } } });
  let client: ToolsearchClient;
  let nc: NatsConnection;
  let session: string;
  let ran: ExecRequest[] = [];
  const as = (args: string[]) => [...args, '--tenant', TENANT];

  beforeAll(async () => {
    await fixture.start();
    client = await fixture.client(TENANT);
    nc = await fixture.connection();
    ran = await serveExec(nc, TENANT, 'ops', async (request) => {
      // A slow call: it finishes after the CLI's --timeout, within its --wait.
      if (request.arguments['table'] === 'slow') await new Promise((resolve) => setTimeout(resolve, 1500));
      return { dropped: request.arguments['table'] };
    });
    await client.putToolset({
      id: 'ops',
      kind: 'plugin',
      label: 'ops',
      tools: [
        { name: 'status', description: 'Show service status.', inputSchema: obj, annotations: { readOnlyHint: true } },
        { name: 'drop_table', description: 'Drop a database table.', inputSchema: obj, risk: 'high' },
      ],
    });
    ({
      session: { id: session },
    } = await client.openSession({ grant: { toolsets: ['ops'] }, model: { contextLength: 128_000 } }));
  }, 30_000);
  afterAll(() => fixture.stop());

  it('toolsets list: a table, and JSON for scripts', async () => {
    const table = await cli(as(['toolsets', 'list']));
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^TOOLSET\s+KIND\s+LABEL\s+TOOLS\s+REVISION\s+STATUS/);
    expect(table.stdout).toMatch(/\nops\s+plugin\s+ops\s+2\s+\d+\s+available/);
    const json = JSON.parse((await cli(as(['toolsets', 'list', '--json']))).stdout) as {
      toolsets: { id: string; tools: number }[];
    };
    expect(json.toolsets).toEqual([expect.objectContaining({ id: 'ops', tools: 2 })]);
  }, 30_000);

  it('sessions list and show, tiers show: what the session sees, equal to its assembly', async () => {
    const listed = await cli(as(['sessions', 'list']));
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(session);
    expect(listed.stdout).toMatch(/1 of 1 open session\(s\)/);
    const shown = await cli(as(['sessions', 'show', session]));
    expect(shown.stdout).toMatch(/toolsets:\s+ops/);
    const assembled = await client.assemble(session);
    const tiers = JSON.parse((await cli(as(['tiers', 'show', session, '--json']))).stdout) as {
      tier: number;
      hash: string;
      deferred_count: number;
    };
    expect(tiers).toMatchObject({
      tier: assembled.tier,
      hash: assembled.hash,
      deferred_count: assembled.deferred_count,
    });
    const text = await cli(as(['tiers', 'show', session]));
    expect(text.stdout).toMatch(new RegExp(`tier:\\s+${assembled.tier}\\n`));
    const missing = await cli(as(['sessions', 'show', 's-doesnotexistdoesnotexist']));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('SESSION_NOT_FOUND');
  }, 30_000);

  it('approvals list, approve (runs once, prints the result) and deny; activity shows real tool names', async () => {
    const { results } = await client.dispatch(session, [
      { id: 'h1', name: 'tool_call', arguments: { name: 'drop_table', arguments: { table: 'users' } } },
    ]);
    const { results: more } = await client.dispatch(session, [
      { id: 'h2', name: 'tool_call', arguments: { name: 'drop_table', arguments: { table: 'orders' } } },
    ]);
    const first = (results[0]?.data as { results: { approval_id: string }[] }).results[0]?.approval_id ?? '';
    const second = (more[0]?.data as { results: { approval_id: string }[] }).results[0]?.approval_id ?? '';
    expect(first).toMatch(/^a-/);

    const listed = await cli(as(['approvals', 'list']));
    expect(listed.stdout).toMatch(/^ID\s+TOOL\s+SESSION/);
    expect(listed.stdout).toContain(first);
    expect(listed.stdout).toContain(second);
    expect(listed.stdout).toContain('{"table":"users"}');

    const anonymous = await cli(as(['approvals', 'approve', first]), { TOOLSEARCH_CREDENTIAL: '' });
    expect(anonymous.code).toBe(1);
    expect(anonymous.stderr).toContain('UNAUTHENTICATED');
    expect(anonymous.stderr).toContain('TOOLSEARCH_CREDENTIAL');
    // An operator reads but does not decide; an approver key outside the policy's list does not either.
    for (const key of [TEST_KEYS.operator, TEST_KEYS.test]) {
      const stranger = await cli(as(['approvals', 'approve', first]), { TOOLSEARCH_CREDENTIAL: key });
      expect(stranger.code).toBe(1);
      expect(stranger.stderr).toContain('FORBIDDEN');
    }
    const alice = { TOOLSEARCH_CREDENTIAL: TEST_KEYS.alice };

    const approved = await cli(as(['approvals', 'approve', first, '--reason', 'cleanup', '--wait', '10000']), alice);
    expect(approved.code).toBe(0);
    expect(approved.stdout).toContain(`approved ${first}`);
    expect(approved.stdout).toContain('by alice');
    expect(approved.stdout).toContain('result: {"dropped":"users"}');
    const again = await cli(as(['approvals', 'approve', first]), alice);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/ALREADY_DECIDED|APPROVAL_NOT_FOUND/);
    expect(ran.filter((request) => request.arguments['table'] === 'users')).toHaveLength(1);

    const denied = await cli(as(['approvals', 'deny', second, '--json']), alice);
    expect((JSON.parse(denied.stdout) as { approval: { state: string } }).approval.state).toBe('denied');
    expect(ran.filter((request) => request.arguments['table'] === 'orders')).toHaveLength(0);

    const activity = await cli(as(['activity', '--session', session]));
    expect(activity.code).toBe(0);
    expect(activity.stdout).toMatch(/drop_table\s+pending_approval/);
    expect(activity.stdout).not.toContain('tool_call');
  }, 60_000);

  it('approvals approve --wait reports a call that ran after --timeout, and get shows it', async () => {
    const { results } = await client.dispatch(session, [
      { id: 'h3', name: 'tool_call', arguments: { name: 'drop_table', arguments: { table: 'slow' } } },
    ]);
    const id = (results[0]?.data as { results: { approval_id: string }[] }).results[0]?.approval_id ?? '';
    const alice = { TOOLSEARCH_CREDENTIAL: TEST_KEYS.alice };
    const held = await cli(as(['approvals', 'get', id]));
    expect(held.stdout).toContain(`${id}: drop_table {"table":"slow"} (state pending)`);
    // Each answer within 1 s, the call 1.5 s: the wait outlasts the timeout (this exited 3 before).
    const approved = await cli(as(['approvals', 'approve', id, '--wait', '10000', '--timeout', '1000']), alice);
    expect(approved.code).toBe(0);
    expect(approved.stdout).toContain('result: {"dropped":"slow"}');
    const shown = JSON.parse((await cli(as(['approvals', 'get', id, '--json']))).stdout) as {
      approval: { state: string; result: { data: unknown } };
    };
    expect(shown.approval).toMatchObject({ state: 'done', result: { data: { dropped: 'slow' } } });
  }, 60_000);

  it('activity --follow prints live events under the real tool name', async () => {
    const child = spawn(process.execPath, [CLI, ...as(['activity', '--follow', '--count', '2', '--json'])], {
      env: { ...process.env, TOOLSEARCH_NATS_URL: NATS_URL, TOOLSEARCH_CREDENTIAL: TEST_KEYS.operator },
    });
    // Never leave the feed running, whatever happens below.
    onTestFinished(() => {
      if (child.exitCode === null) child.kill('SIGKILL');
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the feed did not start')), 20_000);
      child.stderr.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('following activity')) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    await client.dispatch(session, [{ id: 'f1', name: 'tool_call', arguments: { name: 'status', arguments: {} } }]);
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(0);
    const events = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { tool: string; phase: string; session: string });
    expect(events.map((event) => [event.tool, event.phase])).toEqual([
      ['status', 'start'],
      ['status', 'finish'],
    ]);
    expect(events.every((event) => event.session === session)).toBe(true);
  }, 30_000);

  it('says clearly when the daemon cannot be reached or the command is incomplete', async () => {
    const port = await freePort();
    const down = await cli(['sessions', 'list', '--tenant', TENANT, '--nats', `nats://127.0.0.1:${port}`]);
    expect(down.code).toBe(3);
    expect(down.stderr).toContain(`cannot reach NATS at nats://127.0.0.1:${port}`);
    expect(down.stderr).toContain('npm start');
    const noTenant = await cli(['toolsets', 'list'], { TOOLSEARCH_TENANT: '' });
    expect(noTenant.code).toBe(2);
    expect(noTenant.stderr).toContain('--tenant');
    const badTenant = await cli(['toolsets', 'list', '--tenant', 'Not A Tenant']);
    expect(badTenant.code).toBe(2);
    const help = await cli(['--help']);
    for (const command of ['sessions', 'toolsets', 'tiers', 'approvals', 'activity'])
      expect(help.stdout).toContain(command);
  }, 30_000);
});
