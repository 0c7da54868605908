import { describe, expect, it } from 'vitest';
import type { SessionTool } from '@toolsearch/catalog';
import { tool, toolset } from '@toolsearch/testing';
import {
  approvalReason,
  argumentsDigest,
  canonicalJson,
  DEFAULT_CALL_POLICY,
  guardrailVerdict,
  type CallPolicy,
} from '../src/index';
import { sessionOf } from './bridge-fixture';

const session = sessionOf([
  toolset('files', [
    tool('read_file', 'Read a file.', ['path'], [], { annotations: { readOnlyHint: true } }),
    tool('delete_file', 'Delete a file.', ['path'], [], { annotations: { destructiveHint: true } }),
    tool('wipe_disk', 'Erase a whole disk.', [], [], { risk: 'high' }),
  ]),
  toolset('billing', [tool('void_invoice', 'Cancel an invoice.', ['id'])]),
]);
const byName = (name: string): SessionTool => {
  const found = session.table.byName.get(name);
  if (found === undefined) throw new Error(`no tool ${name}`);
  return found;
};
const policy = (
  patch: Partial<Omit<CallPolicy, 'approval'>> & { approval?: Partial<CallPolicy['approval']> },
): CallPolicy => ({
  ...DEFAULT_CALL_POLICY,
  ...patch,
  approval: { ...DEFAULT_CALL_POLICY.approval, ...patch.approval },
});

describe('guardrails', () => {
  it('lets everything run by default', () => {
    expect(guardrailVerdict(DEFAULT_CALL_POLICY, byName('files__delete_file'))).toEqual({ allowed: true });
  });

  it('denies matching tools, and deny wins over allow', () => {
    const rules = policy({ allow: ['server:files'], deny: ['wipe_*'] });
    expect(guardrailVerdict(rules, byName('files__read_file')).allowed).toBe(true);
    const wipe = guardrailVerdict(rules, byName('files__wipe_disk'));
    expect(wipe).toEqual({ allowed: false, reason: expect.stringContaining("'wipe_*'") as unknown });
    expect(guardrailVerdict(rules, byName('billing__void_invoice')).allowed).toBe(false);
  });
});

describe('approval policy', () => {
  it('holds high-risk and destructive tools by default and lets read-only ones through', () => {
    expect(approvalReason(DEFAULT_CALL_POLICY, byName('files__wipe_disk'))).toContain('high risk');
    expect(approvalReason(DEFAULT_CALL_POLICY, byName('files__delete_file'))).toContain('destructiveHint');
    expect(approvalReason(DEFAULT_CALL_POLICY, byName('files__read_file'))).toBeUndefined();
    expect(approvalReason(DEFAULT_CALL_POLICY, byName('billing__void_invoice'))).toBeUndefined();
  });

  it('follows tenant patterns, routing confirm rules and exemptions', () => {
    expect(approvalReason(policy({ approval: { tools: ['void_*'] } }), byName('billing__void_invoice'))).toContain(
      "'void_*'",
    );
    const routing = [{ tools: ['server:billing'], confirm: true }];
    expect(approvalReason(DEFAULT_CALL_POLICY, byName('billing__void_invoice'), routing)).toContain('routing rule');
    const exempt = policy({ approval: { exempt: ['delete_file'] } });
    expect(approvalReason(exempt, byName('files__delete_file'))).toBeUndefined();
    expect(approvalReason(policy({ approval: { destructive: false } }), byName('files__delete_file'))).toBeUndefined();
  });
});

describe('argument digest', () => {
  it('does not depend on key order and changes with any value', () => {
    const a = argumentsDigest({ path: '/tmp/x', options: { force: true, depth: 2 } });
    expect(argumentsDigest({ options: { depth: 2, force: true }, path: '/tmp/x' })).toBe(a);
    expect(argumentsDigest({ path: '/tmp/y', options: { force: true, depth: 2 } })).not.toBe(a);
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(canonicalJson({ b: [1, { d: 1, c: 2 }], a: null })).toBe('{"a":null,"b":[1,{"c":2,"d":1}]}');
  });
});
