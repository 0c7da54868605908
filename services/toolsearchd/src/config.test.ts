import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadDaemonConfig, parseDaemonConfig } from './config';
import { pino } from 'pino';
import { checkAuthentication, unauthenticated } from './connections';

const file = (content: string) => {
  const path = join(mkdtempSync(join(tmpdir(), 'toolsearchd-')), 'config.yaml');
  writeFileSync(path, content);
  return path;
};

describe('daemon config', () => {
  it('has a default for every key', () => {
    expect(parseDaemonConfig({})).toMatchObject({
      nats: { url: 'nats://127.0.0.1:4222' },
      redis: { url: 'redis://127.0.0.1:6379' },
      namespace: { bucket: 'toolsearch-toolsets', queue: 'toolsearchd' },
      limits: { maxPayloadBytes: 1_048_576 },
    });
  });

  it('names the key of a bad value', () => {
    expect(() => parseDaemonConfig({ limits: { maxPayloadBytes: 10 } })).toThrow(/^limits\.maxPayloadBytes: /);
    expect(() => parseDaemonConfig({ nats: { urls: 'x' } })).toThrow(/nats/);
    expect(() => parseDaemonConfig({ tenants: { 'Bad Tenant': {} } })).toThrow(ConfigError);
  });

  it('reads YAML and lets the environment override it', () => {
    const path = file('nats:\n  url: nats://10.0.0.1:4222\nlog:\n  level: debug\n');
    const config = loadDaemonConfig(path, { TOOLSEARCH_NATS_URL: 'nats://127.0.0.1:5222', TOOLSEARCH_BUCKET: 'other' });
    expect(config.nats.url).toBe('nats://127.0.0.1:5222');
    expect(config.log.level).toBe('debug');
    expect(config.namespace.bucket).toBe('other');
  });

  it('explains a missing or malformed file', () => {
    expect(() => loadDaemonConfig('/nonexistent/toolsearchd.yaml', {})).toThrow(/cannot read config/);
    expect(() => loadDaemonConfig(file('- a list\n'), {})).toThrow(/must be a mapping/);
  });

  it('takes the HTTP listener from the environment and refuses a bad port or API key with its path', () => {
    const config = loadDaemonConfig(undefined, { TOOLSEARCH_HTTP_HOST: '0.0.0.0', TOOLSEARCH_HTTP_PORT: '9000' });
    expect(config.http).toMatchObject({ enabled: true, host: '0.0.0.0', port: 9000 });
    expect(() => loadDaemonConfig(undefined, { TOOLSEARCH_HTTP_PORT: 'eighty' })).toThrow(/^http\.port: /);
    expect(() => parseDaemonConfig({ http: { port: 70_000 } })).toThrow(/^http\.port: /);
    expect(() =>
      parseDaemonConfig({
        tenants: { acme: { apiKeys: [{ name: 'k', sha256: 'the-key-itself', grant: { toolsets: [] } }] } },
      }),
    ).toThrow(/^tenants\.acme\.apiKeys\.0\.sha256: the sha256 of the key/);
  });
});

describe('daemon config: learning from use', () => {
  it('leaves every tenant out unless it opts in, and bounds what an opted-in tenant holds', () => {
    const config = parseDaemonConfig({ tenants: { a: {}, b: { learnFromUse: true } } });
    expect(config.tenants['a']?.learnFromUse).toBe(false);
    expect(config.tenants['b']?.learnFromUse).toBe(true);
    expect(config.learnFromUse).toEqual({
      halfLifeMs: 604_800_000,
      maxTerms: 4096,
      maxToolsPerTerm: 8,
      searchMemoryMs: 600_000,
      maxSessions: 20_000,
    });
    expect(() => parseDaemonConfig({ learnFromUse: { maxSessions: 0 } })).toThrow(/learnFromUse\.maxSessions/);
  });
});

describe('daemon config: NATS and Redis credentials', () => {
  it('reads every credential from the environment, and TOOLSEARCH_INSECURE as a boolean', () => {
    const config = loadDaemonConfig(undefined, {
      TOOLSEARCH_NATS_USER: 'toolsearchd',
      TOOLSEARCH_NATS_PASSWORD: 'np',
      TOOLSEARCH_REDIS_USERNAME: 'ru',
      TOOLSEARCH_REDIS_PASSWORD: 'rp',
      TOOLSEARCH_INSECURE: 'true',
    });
    expect(config.nats).toEqual({ url: 'nats://127.0.0.1:4222', user: 'toolsearchd', password: 'np', kvReplicas: 1 });
    expect(config.redis).toEqual({ mode: 'standalone', url: 'redis://127.0.0.1:6379', username: 'ru', password: 'rp' });
    expect(config.security.insecure).toBe(true);
    expect(loadDaemonConfig(undefined, { TOOLSEARCH_INSECURE: '1' }).security.insecure).toBe(true);
    expect(loadDaemonConfig(undefined, { TOOLSEARCH_INSECURE: '0' }).security.insecure).toBe(false);
    expect(parseDaemonConfig({}).security.insecure).toBe(false);
    expect(() => loadDaemonConfig(undefined, { TOOLSEARCH_INSECURE: 'yes' })).toThrow(/^security\.insecure: /);
    expect(loadDaemonConfig(undefined, { TOOLSEARCH_NATS_TOKEN: 't' }).nats.token).toBe('t');
    expect(loadDaemonConfig(undefined, { TOOLSEARCH_NATS_NKEY_SEED_FILE: '/s' }).nats.nkeySeedFile).toBe('/s');
    expect(loadDaemonConfig(undefined, { TOOLSEARCH_NATS_CREDS_FILE: '/c' }).nats.credsFile).toBe('/c');
  });

  it('lets the environment add a password to a YAML file that has none', () => {
    const path = file('nats:\n  url: nats://10.0.0.1:4222,nats://10.0.0.2:4222\n  user: toolsearchd\n');
    const config = loadDaemonConfig(path, { TOOLSEARCH_NATS_PASSWORD: 'from-a-secret' });
    expect(config.nats).toMatchObject({ user: 'toolsearchd', password: 'from-a-secret' });
  });

  it('refuses two NATS methods, and URL credentials that disagree with the keys, saying where they go', () => {
    expect(() => parseDaemonConfig({ nats: { token: 't', credsFile: '/c' } })).toThrow(
      /^nats: NATS credentials are configured 2 ways \(token, creds\); give exactly one of nats\.user \+ nats\.password/,
    );
    expect(() => parseDaemonConfig({ nats: { url: 'nats://a:b@h', user: 'a', password: 'c' } })).toThrow(
      /^nats: the NATS URL carries credentials that disagree .* not in the URL/,
    );
    expect(() => parseDaemonConfig({ nats: { password: 'p' } })).toThrow(/^nats: .*without a user/);
    expect(parseDaemonConfig({ nats: { url: 'nats://a:b@h', user: 'a', password: 'b' } }).nats.user).toBe('a');
  });

  it('refuses Redis URL credentials that disagree with the keys; a username alone is no authentication', () => {
    expect(() => parseDaemonConfig({ redis: { url: 'redis://u:p@h:6379', password: 'q' } })).toThrow(
      /^redis: the Redis URL carries credentials that disagree .*redis\.username\/redis\.password/,
    );
    expect(unauthenticated(parseDaemonConfig({ redis: { username: 'u' } }))).toEqual(['NATS', 'Redis']);
    expect(unauthenticated(parseDaemonConfig({ nats: { token: 't' }, redis: { url: 'redis://:p@h' } }))).toEqual([]);
    expect(
      parseDaemonConfig({ redis: { url: 'redis://u:p@h:6379', username: 'u', password: 'p' } }).redis.password,
    ).toBe('p');
  });
});

describe('daemon config: Redis Sentinel authentication', () => {
  it('counts Sentinels without a password as unauthenticated, and they refuse to start without security.insecure', () => {
    const sentinel = { mode: 'sentinel', sentinels: ['s:26379'], name: 'm', password: 'rp' };
    const config = parseDaemonConfig({ nats: { token: 't' }, redis: sentinel });
    expect(unauthenticated(config)).toEqual(['Redis Sentinel']);
    expect(
      unauthenticated(parseDaemonConfig({ nats: { token: 't' }, redis: { ...sentinel, sentinelPassword: 'sp' } })),
    ).toEqual([]);
    expect(() => checkAuthentication(config, pino({ level: 'silent' }))).toThrow(/TOOLSEARCH_REDIS_SENTINEL_PASSWORD/);
  });
});
