import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NatsAuthError, natsConnectOptions, redactUrl, resolveNatsAuth } from './nats-auth';

const SEED = `SU${'A'.repeat(56)}`;
const file = (content: string) => {
  const path = join(mkdtempSync(join(tmpdir(), 'nats-auth-')), 'secret');
  writeFileSync(path, content);
  return path;
};

describe('resolveNatsAuth', () => {
  it('takes user:password out of every URL of a seed list when they agree', () => {
    expect(resolveNatsAuth({ url: 'nats://svc:p%40ss@a:4222, nats://svc:p%40ss@b:4222' })).toEqual({
      servers: ['nats://a:4222', 'nats://b:4222'],
      auth: { kind: 'user', user: 'svc', password: 'p@ss' },
    });
  });

  it('reads a lone userinfo as a token and leaves URLs without credentials alone', () => {
    expect(resolveNatsAuth({ url: 'tls://s3cr3t@host:4222' }).auth).toEqual({ kind: 'token', token: 's3cr3t' });
    expect(resolveNatsAuth({ url: 'host:4222,nats://other' })).toEqual({
      servers: ['host:4222', 'nats://other'],
      auth: { kind: 'none' },
    });
  });

  it('uses the keys, and accepts the same credentials in the URL too', () => {
    expect(resolveNatsAuth({ url: 'nats://h', user: 'u', password: 'p' }).auth).toEqual({
      kind: 'user',
      user: 'u',
      password: 'p',
    });
    expect(resolveNatsAuth({ url: 'nats://u:p@h', user: 'u', password: 'p' }).servers).toEqual(['nats://h']);
    expect(resolveNatsAuth({ url: 'nats://h', nkeySeedFile: '/s' }).auth).toEqual({ kind: 'nkey', seedFile: '/s' });
  });

  it('refuses URL credentials that disagree with the keys, and says where credentials go', () => {
    expect(() => resolveNatsAuth({ url: 'nats://u:p@h', user: 'u', password: 'other' })).toThrow(
      /disagree.*nats\.user \+ nats\.password \(TOOLSEARCH_NATS_USER/,
    );
    expect(() => resolveNatsAuth({ url: 'nats://tok@h', credsFile: '/c' })).toThrow(NatsAuthError);
    expect(() => resolveNatsAuth({ url: 'nats://u:p@a,nats://v:p@b' })).toThrow(/different credentials/);
  });

  it('refuses two methods at once, a password without a user, and no URL', () => {
    expect(() => resolveNatsAuth({ url: 'nats://h', token: 't', credsFile: '/c' })).toThrow(
      /configured 2 ways \(token, creds\); give exactly one/,
    );
    expect(() => resolveNatsAuth({ url: 'nats://h', password: 'p' })).toThrow(/without a user/);
    expect(() => resolveNatsAuth({ url: ' , ' })).toThrow(/no NATS server URL/);
  });
});

describe('natsConnectOptions', () => {
  it('builds an authenticator and strips credentials from the servers', () => {
    const options = natsConnectOptions({ url: 'nats://u:p@h:4222' });
    expect(options.servers).toEqual(['nats://h:4222']);
    expect(typeof options.authenticator).toBe('function');
    expect(natsConnectOptions({ url: 'nats://h' }).authenticator).toBeUndefined();
  });

  it('reads an NKey seed file and refuses one that holds no user seed', () => {
    expect(natsConnectOptions({ url: 'nats://h', nkeySeedFile: file(`${SEED}\n`) }).authenticator).toBeDefined();
    expect(() => natsConnectOptions({ url: 'nats://h', nkeySeedFile: file('not a seed') })).toThrow(
      /does not hold a user seed/,
    );
    expect(() => natsConnectOptions({ url: 'nats://h', nkeySeedFile: '/nonexistent/seed' })).toThrow(
      expect.objectContaining({ code: 'NATS_AUTH_FILE', message: expect.stringMatching(/cannot read the NATS NKey/) }),
    );
  });

  it('refuses a creds file without a JWT and a seed', () => {
    expect(() => natsConnectOptions({ url: 'nats://h', credsFile: file('garbage') })).toThrow(
      /does not hold a user JWT and a user NKey seed/,
    );
    const creds = `-----BEGIN NATS USER JWT-----\naaa.bbb.ccc\n------END NATS USER JWT------\n\n-----BEGIN USER NKEY SEED-----\n${SEED}\n------END USER NKEY SEED------\n`;
    expect(natsConnectOptions({ url: 'nats://h', credsFile: file(creds) }).authenticator).toBeDefined();
  });
});

describe('redactUrl', () => {
  it('hides passwords and tokens in every URL of a text, keeping user names', () => {
    expect(redactUrl('nats://svc:hunter2@a:4222,nats://tok3n@b redis://:pw@r:6379/0 rediss://u:pw@r')).toBe(
      'nats://svc:***@a:4222,nats://***@b redis://:***@r:6379/0 rediss://u:***@r',
    );
    expect(redactUrl('nats://a:4222 and mail@example.com')).toBe('nats://a:4222 and mail@example.com');
  });
});
