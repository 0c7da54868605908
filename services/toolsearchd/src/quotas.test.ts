import { describe, expect, it } from 'vitest';
import { QuotaGate, QuotasSchema } from './quotas';
import type { PacerOptions } from './request-pacer';

const gate = (requestsPerSecond = 100, clock?: () => number, pacing: Partial<PacerOptions> = {}) =>
  new QuotaGate({
    defaults: QuotasSchema.parse({ requestsPerSecond }),
    ...(clock !== undefined ? { clock, pacing: { minBurst: 10, maxWaitMs: 200, ...pacing } } : {}),
    perTenant: new Map(),
    source: {
      sessions: async () => 0,
      sessionBytes: async () => 0,
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

/** A model turn that counts `units` (`dispatchWeight`: one per `tool_call` entry, 16 a call). */
const turnOf = (units: number) => ({
  calls: Array.from({ length: Math.ceil(units / 16) }, (_, call) => ({
    id: `c${call}`,
    name: 'tool_call',
    arguments: {
      calls: Array.from({ length: Math.min(16, units - call * 16) }, (_, at) => ({ name: `t${at}`, arguments: {} })),
    },
  })),
});

describe('QuotaGate pacing', () => {
  it("runs a tenant's requests past its burst later, while another tenant's run at once", async () => {
    const now = 0; // the clock stands still: the schedule never pays itself off here
    const quotas = gate(1_000, () => now); // a burst of 100 units, then one per ms
    const ran: string[] = [];
    const handlers = Object.fromEntries(
      ['sessionsDispatch', 'toolsetsList', 'toolsetsPut'].map((name) => [
        name,
        async (params: { tenant: string }) => ran.push(name === 'toolsetsPut' ? `${params.tenant}:put` : params.tenant),
      ]),
    );
    const wrapped = quotas.wrap(handlers as never) as unknown as Record<
      string,
      (params: { tenant: string }, payload: unknown, caller: unknown) => Promise<unknown>
    >;
    const search = (tenant: string, units: number) => wrapped['sessionsDispatch']?.({ tenant }, turnOf(units), {});
    // A turn of 100 calls: the burst. The next searches wait (their slots are 40 and 60 ms
    // away: each needs room for its own weight)...
    await search('a', 100);
    const started = performance.now();
    const late = search('a', 40);
    const later = search('a', 20);
    // ...while the other tenant's runs now.
    await search('b', 1);
    expect(ran).toEqual(['a', 'b']);
    await Promise.all([late, later]);
    expect(ran).toEqual(['a', 'b', 'a', 'a']);
    expect(performance.now() - started).toBeGreaterThanOrEqual(50);
    // Toolset changes are counted but not paced: their work is the fan-out's, which has its own pace.
    const put = wrapped['toolsetsPut'];
    expect(put).toBeDefined();
    const putAt = performance.now();
    await put?.({ tenant: 'a' }, {}, {});
    expect(ran.at(-1)).toBe('a:put');
    // Paced, it would wait its turn: the schedule is more than 60 ms ahead here.
    expect(performance.now() - putAt).toBeLessThan(50);
    // A tenant whose next slot is more than 200 ms past its burst is refused, before a payload is read too.
    quotas.charge('a', 300, 5_000);
    await expect(search('a', 1)).rejects.toMatchObject({ code: 'QUOTA_EXCEEDED', quota: 'requestsPerSecond' });
    expect(quotas.refuseEarly('a', 5_000)).toMatchObject({ code: 'QUOTA_EXCEEDED' });
    expect(quotas.refuseEarly('b', 5_000)).toBeUndefined();
    quotas.stop();
  });

  it("holds a tenant's waiting requests to a number of payload bytes, passed on from the request", async () => {
    const quotas = gate(1_000, () => 0, { perTenantBytes: 1_000 });
    const handler = async () => 'ran';
    const wrapped = quotas.wrap({ sessionsDispatch: handler } as never) as unknown as Record<
      string,
      (params: { tenant: string }, payload: unknown, caller: unknown, request: unknown) => Promise<unknown>
    >;
    const search = (units: number, bytes: number) =>
      wrapped['sessionsDispatch']?.({ tenant: 'a' }, turnOf(units), {}, { bearer: undefined, bytes });
    await search(100, 10); // the burst
    const first = search(1, 900); // waits, whatever its size
    await expect(search(1, 200)).rejects.toMatchObject({
      code: 'QUOTA_EXCEEDED',
      message: expect.stringContaining('too many bytes'),
    });
    await expect(search(1, 100)).resolves.toBe('ran');
    await expect(first).resolves.toBe('ran');
    quotas.stop();
  });
});
