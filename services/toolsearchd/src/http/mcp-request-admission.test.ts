import { describe, expect, it } from 'vitest';
import { QuotaExceededError } from '../quotas';
import { RequestError } from '../serve-request';
import { admissionRefusal, mcpRequestWeight } from './mcp-request-admission';

const call = (name: string, args: unknown) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name, arguments: args },
});

describe('mcpRequestWeight', () => {
  it('weighs an /mcp request as the same work over NATS', () => {
    expect(mcpRequestWeight({ jsonrpc: '2.0', id: 1, method: 'tools/list' })).toBe(1);
    expect(mcpRequestWeight(call('github__create_issue', {}))).toBe(1);
    expect(mcpRequestWeight(call('tool_search', { query: 'weather' }))).toBe(1);
    expect(mcpRequestWeight(call('tool_search', { queries: ['a', 'b', 'c'] }))).toBe(3);
    // More queries than the bridge takes: refused without a search, counted 1.
    expect(mcpRequestWeight(call('tool_search', { queries: Array.from({ length: 50 }, () => 'q') }))).toBe(1);
    expect(mcpRequestWeight([call('tool_search', { queries: ['a', 'b'] }), call('x', null)])).toBe(3);
    // Read as the bridge reads them: the singular key with a list, and arguments as JSON text.
    expect(mcpRequestWeight(call('tool_search', { query: ['a', 'b', 'c', 'd'] }))).toBe(4);
    expect(mcpRequestWeight(call('tool_search', JSON.stringify({ queries: ['a', 'b', 'c', 'd', 'e'] })))).toBe(5);
    // A tool_call counts the tools it runs.
    const entries = Array.from({ length: 16 }, (_, at) => ({ name: `github__tool_${at}`, arguments: {} }));
    expect(mcpRequestWeight(call('tool_call', { calls: entries }))).toBe(16);
    expect(mcpRequestWeight(call('tool_call', JSON.stringify({ calls: entries.slice(0, 3) })))).toBe(3);
    for (const free of [{ method: 'ping' }, { method: 'notifications/initialized' }, null, 'tools/list', 42])
      expect(mcpRequestWeight(free)).toBe(0);
  });
});

describe('admissionRefusal', () => {
  it('answers a quota refusal 429 with the quota and its limit, and a stopping daemon 503', () => {
    const refusal = admissionRefusal(
      new QuotaExceededError('requestsPerSecond', 20, 'too many requests in this second'),
    );
    expect(refusal).toMatchObject({
      status: 429,
      code: 'QUOTA_EXCEEDED',
      data: { quota: 'requestsPerSecond', limit: 20 },
    });
    expect(admissionRefusal(new RequestError('UNAVAILABLE', 'the daemon is stopping'))).toMatchObject({
      status: 503,
      code: 'UNAVAILABLE',
    });
  });
});
