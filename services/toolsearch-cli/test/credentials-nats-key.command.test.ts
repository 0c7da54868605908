import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '@toolsearch/testing';
import { natsConf } from '../src/operator/nats-conf';
import { runCli } from './run-cli';

const envOf = (path: string): Record<string, string> =>
  Object.fromEntries(
    readFileSync(path, 'utf8')
      .trim()
      .split('\n')
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );

describe('toolsearch credentials nats', () => {
  it('infra/nats.conf is exactly what the command generates for acme and globex', () => {
    expect(readFileSync(resolve(REPO_ROOT, 'infra/nats.conf'), 'utf8')).toBe(natsConf(['acme', 'globex']));
  });

  it('writes a config without secrets and a 0600 file of passwords that nats-server accepts; keeps them on a rerun', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolsearch-natsconf-'));
    const conf = join(dir, 'nats.conf');
    const secrets = join(dir, 'nats.env');
    const args = ['credentials', 'nats', '--tenants', 'acme,my-co', '--conf', conf, '--secrets-file', secrets];
    const first = await runCli([...args, '--store-dir', dir]);
    expect(first.code).toBe(0);
    const env = envOf(secrets);
    expect(statSync(secrets).mode & 0o777).toBe(0o600);
    expect(Object.keys(env)).toEqual(
      expect.arrayContaining([
        'TOOLSEARCHD_NATS_PASSWORD',
        'ACME_GATEWAY_NATS_PASSWORD',
        'MY_CO_APPROVER_NATS_PASSWORD',
      ]),
    );
    expect(env['TOOLSEARCH_NATS_PASSWORD']).toBe(env['TOOLSEARCHD_NATS_PASSWORD']);
    const text = readFileSync(conf, 'utf8');
    for (const [name, value] of Object.entries(env)) if (name.endsWith('PASSWORD')) expect(text).not.toContain(value);
    expect(first.out).not.toContain(env['ACME_GATEWAY_NATS_PASSWORD']);
    // nats-server itself checks the file with these variables set (-t: test the config and exit).
    const check = spawnSync('nats-server', ['-c', conf, '-t'], { env: { ...process.env, ...env }, encoding: 'utf8' });
    expect(`${check.stdout}${check.stderr}`).toContain('configuration file');
    expect(check.status).toBe(0);
    // A rerun keeps every password (clients keep working).
    expect((await runCli(args)).code).toBe(0);
    expect(envOf(secrets)['ACME_WORKER_NATS_PASSWORD']).toBe(env['ACME_WORKER_NATS_PASSWORD']);
  });

  it('refuses a bad tenant or a missing file with the usage', async () => {
    const bad = await runCli(['credentials', 'nats', '--tenants', 'Acme!', '--conf', 'x', '--secrets-file', 'y']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('not a tenant id');
    expect((await runCli(['credentials', 'nats', '--tenants', 'acme'])).err).toContain('--conf FILE');
  });
});

describe('toolsearch credentials key', () => {
  it('mints a key and the config entry that knows it only by its sha256', async () => {
    const run = await runCli([
      'credentials',
      'key',
      '--name',
      'alice',
      '--tenants',
      'acme',
      '--roles',
      'approver',
      '--json',
    ]);
    expect(run.code).toBe(0);
    const { key, entry } = JSON.parse(run.out) as { key: string; entry: { sha256: string; roles: string[] } };
    expect(key).toMatch(/^tsk_[A-Za-z0-9_-]{43}$/);
    expect(entry).toEqual({
      name: 'alice',
      sha256: createHash('sha256').update(key).digest('hex'),
      tenants: ['acme'],
      roles: ['approver'],
    });
    const text = await runCli(['credentials', 'key', '--name', 'ops', '--tenants', '*', '--roles', 'operator,gateway']);
    expect(text.out).toContain("tenants: ['*']");
    expect(text.out).toContain('roles: [operator, gateway]');
  });

  it('refuses an unknown role or a bad name', async () => {
    const role = await runCli(['credentials', 'key', '--name', 'x', '--tenants', 'acme', '--roles', 'root']);
    expect(role.code).toBe(2);
    expect(role.err).toContain("'root' is not a role");
    expect(
      (await runCli(['credentials', 'key', '--name', 'a b', '--tenants', 'acme', '--roles', 'gateway'])).err,
    ).toContain('not a credential name');
  });
});
