import { describe, expect, it } from 'vitest';
import { QuotaGate, QuotasSchema } from './quotas';

const gate = () =>
  new QuotaGate({
    defaults: QuotasSchema.parse({ requestsPerSecond: 100 }),
    perTenant: new Map(),
    source: {
      sessions: async () => 0,
      toolsets: () => ({ toolsets: 0, tools: 0, bytes: 0, mcpServers: 0 }),
      heldApprovals: async () => 0,
    },
    // Never reached: the windows below are not synced (no timer runs within the test).
    redis: {} as never,
    prefix: 'test:',
  });

describe('QuotaGate requests per second', () => {
  it('counts charged work against the window, so the next requests wait for it', () => {
    const quotas = gate();
    const now = 5_000;
    quotas.admitRequest('a', now, 10);
    expect(quotas.refuseEarly('a', now)).toBeUndefined();
    quotas.charge('a', 90, now);
    const refusal = quotas.refuseEarly('a', now);
    expect(refusal).toMatchObject({ code: 'QUOTA_EXCEEDED', quota: 'requestsPerSecond' });
    // One refusal per window, reused; the other tenant and the next second are untouched.
    expect(quotas.refuseEarly('a', now + 10)).toBe(refusal);
    expect(quotas.refuseEarly('b', now)).toBeUndefined();
    expect(() => quotas.admitRequest('a', now + 1000, 1)).not.toThrow();
    quotas.stop();
  });
});
