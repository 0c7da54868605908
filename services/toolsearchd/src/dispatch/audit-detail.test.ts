import { describe, expect, it } from 'vitest';
import { AUDIT_ARGUMENTS_CHARS, auditDetail, AuditPolicySchema, redacted } from './audit-detail';

const ok = (data: unknown) => ({ ok: true, data, error: null, status: 'done' as const });

describe('audit detail', () => {
  it('keeps a result summary but no arguments by default, and redacts secrets at every depth', () => {
    const policy = AuditPolicySchema.parse({});
    const detail = auditDetail(policy, { path: '/x' }, ok({ rows: 2, auth: { Access_Token: 'abc' } }));
    expect(detail).toEqual({ result: '{"rows":2,"auth":{"Access_Token":"[redacted]"}}' });
  });

  it('keeps redacted, capped arguments when the policy asks, and the error of a failed call', () => {
    const policy = AuditPolicySchema.parse({ arguments: true, redact: ['card*'] });
    const failed = { ok: false, data: null, error: { code: 'DENIED', message: 'no' }, status: 'done' as const };
    expect(auditDetail(policy, { card_number: '4111', items: [{ cardholder: 'A' }] }, failed)).toEqual({
      arguments: '{"card_number":"[redacted]","items":[{"cardholder":"[redacted]"}]}',
      result: 'DENIED: no',
    });
    const long = auditDetail(policy, { text: 'x'.repeat(10_000) }, ok(null));
    expect(long.arguments).toHaveLength(AUDIT_ARGUMENTS_CHARS);
    // A held call has no result yet.
    expect(auditDetail(policy, {}, { ...ok(null), status: 'pending_approval' })).toEqual({ arguments: '{}' });
  });

  it('leaves values alone when no key matches, without changing the input', () => {
    const input = { a: [1, { b: 'c' }] };
    expect(redacted(input, ['*secret*'])).toEqual(input);
    expect(redacted({ MY_SECRET: 1 }, ['*secret*'])).toEqual({ MY_SECRET: '[redacted]' });
  });
});
