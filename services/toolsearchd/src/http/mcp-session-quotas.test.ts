import { describe, expect, it } from 'vitest';
import { parseDaemonConfig } from '../config';
import { isRefusal, McpSessionQuotas, type McpSessionSlot } from './mcp-session-quotas';

const limits = { maxMcpSessions: 5, maxMcpSessionsPerTenant: 3, maxMcpSessionsPerCredential: 2 };

function slot(quotas: McpSessionQuotas, tenant: string, credential: string): McpSessionSlot {
  const taken = quotas.take(tenant, credential);
  if (isRefusal(taken)) throw new Error(`refused: ${taken.message}`);
  return taken;
}

describe('McpSessionQuotas', () => {
  it('refuses a credential at its cap with QUOTA_EXCEEDED naming the quota, while others still get slots', () => {
    const quotas = new McpSessionQuotas(limits);
    slot(quotas, 'a', 'key-1');
    slot(quotas, 'a', 'key-1');
    const refused = quotas.take('a', 'key-1');
    expect(refused).toMatchObject({
      status: 429,
      code: 'QUOTA_EXCEEDED',
      data: { quota: 'http.maxMcpSessionsPerCredential', limit: 2 },
    });
    expect(isRefusal(quotas.take('b', 'key-2'))).toBe(false);
  });

  it('refuses a tenant at its cap across its credentials, and the replica when full, with 503', () => {
    const quotas = new McpSessionQuotas(limits);
    for (const credential of ['k1', 'k2', 'k3']) slot(quotas, 'a', credential);
    expect(quotas.take('a', 'k4')).toMatchObject({ status: 429, data: { quota: 'http.maxMcpSessionsPerTenant' } });
    slot(quotas, 'b', 'k5');
    slot(quotas, 'c', 'k6');
    expect(quotas.take('d', 'k7')).toMatchObject({ status: 503, code: 'UNAVAILABLE' });
  });

  it('gives a slot back once, however often it is released', () => {
    const quotas = new McpSessionQuotas(limits);
    const first = slot(quotas, 'a', 'key');
    slot(quotas, 'a', 'key');
    first.release();
    first.release();
    slot(quotas, 'a', 'key');
    expect(isRefusal(quotas.take('a', 'key'))).toBe(true);
  });
});

describe('http config', () => {
  it('has defaults that protect a shared daemon', () => {
    expect(parseDaemonConfig({}).http).toMatchObject({
      allowedOrigins: [],
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      bodyIdleTimeoutMs: 10_000,
      maxConnectionsPerAddress: 512,
      maxMcpSessionsPerCredential: 100,
      maxMcpSessionsPerTenant: 1000,
      mcpAbandonedMs: 60_000,
    });
  });

  it('refuses an origin with a path and a headers timeout longer than the request timeout, by key', () => {
    expect(() => parseDaemonConfig({ http: { allowedOrigins: ['https://app.example/'] } })).toThrow(
      /^http\.allowedOrigins\.0: /,
    );
    expect(() => parseDaemonConfig({ http: { headersTimeoutMs: 5000, requestTimeoutMs: 1000 } })).toThrow(
      /^http\.headersTimeoutMs: /,
    );
  });
});
