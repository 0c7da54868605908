import { execFile, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daemonFixture, NATS_URL, tenantId, TEST_KEYS } from './harness';

// A gateway in another language, run as users would: the Python example against the real daemon,
// checking every message against the published JSON Schema.
const GATEWAY = fileURLToPath(new URL('../../../examples/python-gateway/gateway.py', import.meta.url));
const python = spawnSync('python3', ['-c', 'import jsonschema'], { encoding: 'utf8' });
const missing =
  python.error !== undefined
    ? 'python3 is not installed'
    : python.status !== 0
      ? 'the jsonschema Python package is not installed (pip install jsonschema)'
      : undefined;
if (missing !== undefined) console.warn(`skipping the Python gateway test: ${missing}`);

const TENANT = tenantId('python');

describe.skipIf(missing !== undefined)('a gateway written in Python', () => {
  const fixture = daemonFixture({ tenants: { [TENANT]: { policy: { approval: { approvers: ['alice'] } } } } });

  beforeAll(() => fixture.start());
  afterAll(() => fixture.stop());

  it('registers, serves its executor, opens, assembles, searches, dispatches and has a held call approved', async () => {
    const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        'python3',
        [GATEWAY],
        {
          env: {
            ...process.env,
            TOOLSEARCH_NATS_URL: NATS_URL,
            TOOLSEARCH_TENANT: TENANT,
            TOOLSEARCH_CREDENTIAL: TEST_KEYS.test,
            TOOLSEARCH_APPROVER_CREDENTIAL: TEST_KEYS.alice,
          },
          timeout: 60_000,
        },
        (error, out, err) => resolve({ code: error === null ? 0 : Number(error.code ?? 1), stdout: out, stderr: err }),
      );
    });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain('search found');
    expect(stdout).toMatch(/drop_table held for approval a-/);
    expect(stdout).toContain("approved and ran: {'tool': 'drop_table', 'arguments': {'table': 'users'}}");
    expect(stdout.trim().split('\n').at(-1)).toBe('gateway conformance: ok');
  }, 90_000);
});
