import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli';

const env = (path: string): Record<string, string> =>
  Object.fromEntries(
    readFileSync(path, 'utf8')
      .trim()
      .split('\n')
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );

function paths() {
  const dir = mkdtempSync(join(tmpdir(), 'toolsearch-credentials-'));
  return { acl: join(dir, 'users.acl'), secrets: join(dir, 'secrets.env') };
}

describe('toolsearch credentials redis', () => {
  it('writes the ACL file and a 0600 secrets file, and prints no password', async () => {
    const { acl, secrets } = paths();
    const run = await runCli([
      'credentials',
      'redis',
      '--tenants',
      'acme,globex',
      '--acl-file',
      acl,
      '--secrets-file',
      secrets,
    ]);
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    expect(Object.keys(env(secrets))).toEqual([
      'TOOLSEARCH_REDIS_USERNAME',
      'TOOLSEARCH_REDIS_PASSWORD',
      'TOOLSEARCH_WORKER_REDIS_PASSWORD_ACME',
      'TOOLSEARCH_WORKER_REDIS_PASSWORD_GLOBEX',
    ]);
    expect(env(secrets)['TOOLSEARCH_REDIS_USERNAME']).toBe('toolsearchd');
    expect(statSync(secrets).mode & 0o777).toBe(0o600);
    const text = readFileSync(acl, 'utf8');
    expect(text).toMatch(/^user worker-globex on #[0-9a-f]{64} resetkeys resetchannels ~toolsearch:{globex}:w:\* /m);
    for (const [name, value] of Object.entries(env(secrets))) {
      if (!name.includes('PASSWORD')) continue;
      expect(run.out).not.toContain(value);
      expect(text).not.toContain(value);
    }
    expect(run.out).toContain('worker-acme');
  });

  it('adds a tenant without changing the passwords already given out, and updates the secrets file in place', async () => {
    const { acl, secrets } = paths();
    writeFileSync(secrets, 'TOOLSEARCH_NATS_PASSWORD=keep-me\n', { mode: 0o644 });
    await runCli(['credentials', 'redis', '--tenants', 'acme', '--acl-file', acl, '--secrets-file', secrets]);
    const before = env(secrets);
    const run = await runCli(
      [
        'credentials',
        'redis',
        '--tenants',
        'acme',
        '--tenants',
        'initech',
        '--acl-file',
        acl,
        '--secrets-file',
        secrets,
      ],
      {},
    );
    expect(run.code).toBe(0);
    const after = env(secrets);
    expect(after['TOOLSEARCH_NATS_PASSWORD']).toBe('keep-me');
    expect(after['TOOLSEARCH_REDIS_PASSWORD']).toBe(before['TOOLSEARCH_REDIS_PASSWORD']);
    expect(after['TOOLSEARCH_WORKER_REDIS_PASSWORD_ACME']).toBe(before['TOOLSEARCH_WORKER_REDIS_PASSWORD_ACME']);
    expect(after['TOOLSEARCH_WORKER_REDIS_PASSWORD_INITECH']).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(statSync(secrets).mode & 0o777).toBe(0o600);
  });

  it('prints passwords only when asked, and takes the prefix from the daemon environment', async () => {
    const { acl } = paths();
    const run = await runCli(['credentials', 'redis', '--tenants', 'acme', '--acl-file', acl, '--print-passwords'], {
      TOOLSEARCH_REDIS_PREFIX: 'prod:',
    });
    expect(run.code).toBe(0);
    expect(run.out).toMatch(/^TOOLSEARCH_WORKER_REDIS_PASSWORD_ACME=[A-Za-z0-9_-]{43}$/m);
    expect(readFileSync(acl, 'utf8')).toContain('~prod:{acme}:w:*');
  });

  it('refuses to make passwords that would go nowhere, and bad tenant ids', async () => {
    const { acl } = paths();
    const nowhere = await runCli(['credentials', 'redis', '--tenants', 'acme', '--acl-file', acl]);
    expect(nowhere.code).toBe(2);
    expect(nowhere.err).toMatch(/--secrets-file/);
    const bad = await runCli(['credentials', 'redis', '--tenants', 'Acme!', '--acl-file', acl, '--print-passwords']);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/not a tenant id/);
  });
});
