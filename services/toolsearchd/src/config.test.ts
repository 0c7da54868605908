import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadDaemonConfig, parseDaemonConfig } from './config';

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
