import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolsearchClient } from '@toolsearch/client';
import type { Daemon } from '../src/daemon';
import { daemonFixture, serveExec, tenantId } from './harness';

const FIXTURE = fileURLToPath(new URL('./fixtures/file-driven-mcp-server.mjs', import.meta.url));
const obj = { type: 'object', properties: {} };
const TENANT = tenantId('metrics');
const SECRET = 'sk-live-metrics-must-never-show-this';

/** One sample's value from Prometheus exposition text, or undefined when the series is absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const match = /^([a-z_]+)(\{(.*)\})? (\S+)$/.exec(line);
    if (match === null || match[1] !== name) continue;
    const got = Object.fromEntries([...(match[3] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([key, value]) => got[key] === value)) return Number(match[4]);
  }
  return undefined;
}

describe('metrics and health over HTTP', () => {
  const fixture = daemonFixture();
  let daemon: Daemon;
  let client: ToolsearchClient;

  beforeAll(async () => {
    daemon = await fixture.start();
    client = await fixture.client(TENANT);
    const nc = await fixture.connection();
    await serveExec(nc, TENANT, 'ops', () => 'done');
    const tools = join(mkdtempSync(join(tmpdir(), 'toolsearch-metrics-')), 'tools.json');
    writeFileSync(tools, JSON.stringify([{ name: 'lookup', description: 'Look something up.', inputSchema: obj }]));
    await daemon.attachMcp(TENANT, {
      name: 'lookup',
      // A secret in the server's environment: it must not reach the metrics.
      transport: { type: 'stdio', command: process.execPath, args: [FIXTURE, tools], env: { API_TOKEN: SECRET } },
      supports_parallel_tool_calls: true,
    });
  }, 30_000);
  afterAll(() => fixture.stop());

  it('counts requests per endpoint and outcome, search latency, sessions by tier, approvals and MCP health', async () => {
    await client.putToolset({
      id: 'ops',
      kind: 'plugin',
      label: 'ops',
      tools: [{ name: 'purge', description: 'Purge a cache.', inputSchema: obj, risk: 'high' }],
    });
    const { session } = await client.openSession({
      grant: { toolsets: ['ops', 'mcp-lookup'] },
      model: { contextLength: 128_000 },
    });
    await client.search(session.id, ['purge cache']);
    await client.search(session.id, ['look up']);
    await client.describe(session.id, ['purge']).catch(() => undefined);
    await client.assemble('s-doesnotexistdoesnotexist').catch(() => undefined);
    const held = await client.dispatch(session.id, [{ id: 'p1', name: 'purge', arguments: {} }]);
    const approval = held.results[0]?.approval_id ?? '';
    const before = await (await fetch(`${daemon.httpAddress}/metrics`)).text();
    expect(sample(before, 'toolsearch_approvals_pending')).toBe(1);
    const { approval: shown } = await client.getApproval(approval);
    await client.decide(approval, {
      decision: 'approve',
      by: 'ops-oncall',
      tool: shown.tool,
      digest: shown.digest,
      wait_ms: 5000,
    });

    const response = await fetch(`${daemon.httpAddress}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    const text = await response.text();
    expect(sample(text, 'toolsearch_requests_total', { endpoint: 'sessions.search', outcome: 'ok' })).toBe(2);
    expect(
      sample(text, 'toolsearch_requests_total', { endpoint: 'sessions.assemble', outcome: 'SESSION_NOT_FOUND' }),
    ).toBe(1);
    expect(sample(text, 'toolsearch_requests_total', { endpoint: 'approvals.decide', outcome: 'ok' })).toBe(1);
    expect(sample(text, 'toolsearch_request_duration_seconds_count', { endpoint: 'sessions.search' })).toBe(2);
    expect(
      sample(text, 'toolsearch_request_duration_seconds_bucket', { endpoint: 'sessions.search', le: '+Inf' }),
    ).toBe(2);
    expect(sample(text, 'toolsearch_search_duration_seconds_count')).toBe(2);
    expect(sample(text, 'toolsearch_sessions_open')).toBeGreaterThanOrEqual(1);
    // The searches built an engine and an assembly, held within the replica's bounds (docs/security.md).
    expect(sample(text, 'toolsearch_cached_tools', { cache: 'engines' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'toolsearch_cached_tools', { cache: 'assemblies' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'toolsearch_engine_builds_total')).toBeGreaterThanOrEqual(1);
    const tiers = [0, 1, 2].map((tier) => sample(text, 'toolsearch_sessions_by_tier', { tier: String(tier) }) ?? 0);
    expect(tiers.reduce((sum, count) => sum + count, 0)).toBe(1);
    expect(sample(text, 'toolsearch_approvals_decided_total', { decision: 'approve' })).toBe(1);
    expect(sample(text, 'toolsearch_approvals_pending')).toBe(0);
    // Counted, not named: the public /metrics shows no tenant or server (docs/security.md, HTTP limits).
    expect(sample(text, 'toolsearch_mcp_servers', { state: 'connected' })).toBe(1);
    expect(text).not.toContain(TENANT);
    expect(text).not.toContain(SECRET);
  });

  it('answers /healthz and /readyz, and 404 with the paths it serves', async () => {
    const health = await fetch(`${daemon.httpAddress}/healthz`);
    expect(health.status).toBe(200);
    const ready = await fetch(`${daemon.httpAddress}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ ok: true, checks: { nats: true, registry: true, redis: true } });
    const missing = await fetch(`${daemon.httpAddress}/nope`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('/metrics');
    const wrongMethod = await fetch(`${daemon.httpAddress}/mcp`, { method: 'PUT' });
    expect(wrongMethod.status).toBe(405);
  });
});
