import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { loadDaemonConfig, parseDaemonConfig } from '../src/config';
import { unauthenticated } from '../src/connections';

// The clustered deployment files (docker-compose.cluster.yml, infra/k8s/cluster/): Docker and
// Kubernetes cannot run here, so these check that the files parse, agree with each other and with
// the daemon's config, keep authentication on and keep passwords out of them.
const file = (path: string) => fileURLToPath(new URL(`../../../${path}`, import.meta.url));
const read = (path: string) => readFileSync(file(path), 'utf8');

type Container = {
  command?: string[];
  env?: { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }[];
};
type Manifest = {
  kind: string;
  metadata: { name: string };
  spec?: { replicas?: number; template?: { spec: { containers: Container[]; volumes?: unknown[] } } };
  data?: Record<string, string>;
};

function overlay(): { kustomization: { resources: string[]; patches: { path: string }[] }; manifests: Manifest[] } {
  const kustomization = parse(read('infra/k8s/cluster/kustomization.yaml')) as {
    resources: string[];
    patches: { path: string }[];
  };
  const manifests = [
    ...kustomization.resources.filter((resource) => resource !== '../'),
    ...kustomization.patches.map((patch) => patch.path),
  ].flatMap((resource) =>
    parseAllDocuments(read(`infra/k8s/cluster/${resource}`)).map((document) => {
      expect(document.errors).toEqual([]);
      return document.toJS() as Manifest;
    }),
  );
  return { kustomization, manifests };
}

const statefulSet = (manifests: Manifest[], name: string) => {
  const found = manifests.find((manifest) => manifest.kind === 'StatefulSet' && manifest.metadata.name === name);
  expect(found, name).toBeDefined();
  return found as Manifest;
};
const script = (container: Container | undefined) => (container?.command ?? []).join(' ');

/** Every password variable of a container comes from a Secret, never a literal value. */
function passwordsFromSecrets(container: Container | undefined): string[] {
  const secrets: string[] = [];
  for (const variable of container?.env ?? [])
    if (/PASSWORD|AUTH/.test(variable.name)) {
      expect(variable.value, variable.name).toBeUndefined();
      expect(variable.valueFrom?.secretKeyRef, variable.name).toBeDefined();
      secrets.push(variable.valueFrom?.secretKeyRef?.name ?? '');
    }
  return secrets;
}

describe('clustered deployment files', () => {
  it('Kubernetes: three NATS nodes in one JetStream cluster, Redis with a replica and three Sentinels, all authenticated', () => {
    const { kustomization, manifests } = overlay();
    expect(kustomization.resources).toContain('../');
    const nats = statefulSet(manifests, 'nats');
    expect(nats.spec?.replicas).toBe(3);
    const natsScript = script(nats.spec?.template?.spec.containers[0]);
    expect(natsScript).toContain('nats-server -c /secrets/nats.conf');
    expect(natsScript).toMatch(
      /--cluster_name toolsearch .*--routes nats:\/\/nats-0\.nats:6222,nats:\/\/nats-1\.nats:6222,nats:\/\/nats-2\.nats:6222/s,
    );

    const redis = statefulSet(manifests, 'redis');
    expect(redis.spec?.replicas).toBe(2);
    const redisContainer = redis.spec?.template?.spec.containers[0];
    expect(script(redisContainer)).toMatch(
      /redis-server \/etc\/redis\/redis\.conf --aclfile \/etc\/redis-acl\/users\.acl/,
    );
    expect(script(redisContainer)).toContain('masteruser replica');
    const sentinel = statefulSet(manifests, 'toolsearch-sentinel');
    expect(sentinel.spec?.replicas).toBe(3);
    const sentinelContainer = sentinel.spec?.template?.spec.containers[0];
    expect(script(sentinelContainer)).toMatch(/requirepass \$TOOLSEARCH_REDIS_SENTINEL_PASSWORD/);
    expect(script(sentinelContainer)).toContain('sentinel auth-user toolsearch sentinel');
    expect(script(sentinelContainer)).toContain('sentinel monitor toolsearch redis-0.redis 6379 2');

    const daemon = manifests.find((manifest) => manifest.kind === 'Deployment');
    const used = new Set([
      ...passwordsFromSecrets(redisContainer),
      ...passwordsFromSecrets(sentinelContainer),
      ...passwordsFromSecrets(daemon?.spec?.template?.spec.containers[0]),
      'toolsearch-nats-conf',
      'toolsearch-redis-acl',
    ]);
    // Each Secret is one the README says how to create from the CLI's files.
    for (const secret of used) expect(read('infra/README.md')).toContain(`kubectl create secret generic ${secret}`);
    expect(read('infra/README.md')).toContain('kubectl create configmap toolsearch-redis-conf');

    const configText = manifests.find((manifest) => manifest.kind === 'ConfigMap')?.data?.['toolsearchd.yaml'] ?? '';
    const config = parseDaemonConfig(parse(configText));
    expect(config.nats.url.split(',')).toHaveLength(3);
    expect(config.nats.kvReplicas).toBe(3);
    expect(config.redis).toMatchObject({ mode: 'sentinel', name: 'toolsearch', username: 'toolsearchd' });
    expect(config.redis.sentinels).toHaveLength(3);
    for (const address of config.redis.sentinels ?? [])
      expect(address).toMatch(/^toolsearch-sentinel-\d\.toolsearch-sentinel:26379$/);
    expect(configText).not.toMatch(/insecure|password/i);
    expect(unauthenticated(config)).toEqual(['Redis', 'Redis Sentinel']);
    const withSecrets = {
      ...config,
      nats: { ...config.nats, password: 'n' },
      redis: { ...config.redis, password: 'r', sentinelPassword: 's' },
    };
    expect(unauthenticated(withSecrets)).toEqual([]);
    for (const name of ['nats.yaml', 'redis.yaml', 'sentinel.yaml', 'daemon-patch.yaml'])
      expect(read(`infra/k8s/cluster/${name}`)).not.toMatch(/[0-9a-f]{32,}|tsk_/i);
  });

  it('docker-compose.cluster.yml: three NATS nodes routed to each other, a replica and three Sentinels, no password in the file', () => {
    const text = read('docker-compose.cluster.yml');
    const compose = parse(text, { merge: true }) as {
      services: Record<string, { command?: string[]; environment?: Record<string, string>; volumes?: string[] }>;
    };
    const names = Object.keys(compose.services).sort();
    expect(names).toEqual(
      [
        'nats',
        'nats-2',
        'nats-3',
        'redis',
        'redis-replica',
        'secrets',
        'sentinel-1',
        'sentinel-2',
        'sentinel-3',
        'toolsearchd',
      ].sort(),
    );
    for (const node of ['nats', 'nats-2', 'nats-3']) {
      const command = (compose.services[node]?.command ?? []).join(' ');
      expect(command).toContain(`exec nats-server -c /secrets/nats.conf --name ${node} --cluster_name toolsearch`);
      expect(command).toContain('--routes nats://nats:6222,nats://nats-2:6222,nats://nats-3:6222');
    }
    expect((compose.services['redis-replica']?.command ?? []).join(' ')).toMatch(
      /--aclfile \/secrets\/users\.acl .*--replicaof redis 6379/s,
    );
    for (const sentinel of ['sentinel-1', 'sentinel-2', 'sentinel-3'])
      expect((compose.services[sentinel]?.command ?? []).join(' ')).toContain(
        'requirepass $$TOOLSEARCH_REDIS_SENTINEL_PASSWORD',
      );
    expect(compose.services['secrets']?.environment).toEqual({ TOOLSEARCH_TOPOLOGY: 'cluster' });
    expect(text).not.toMatch(/INSECURE/i);
    expect(text).not.toMatch(/:\/\/[^\s/@,]+@/);
    expect(text).not.toMatch(/[0-9a-f]{32,}/i);
    for (const [name, definition] of Object.entries(compose.services))
      expect(
        Object.keys(definition.environment ?? {}).filter((variable) => /PASSWORD|TOKEN/.test(variable)),
        name,
      ).toEqual([]);
  });

  it('make-secrets with TOOLSEARCH_TOPOLOGY=cluster writes a daemon config for these services, authenticated with its env file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolsearch-cluster-secrets-'));
    try {
      execFileSync(process.execPath, [file('infra/compose/make-secrets.mjs'), join(dir, 's')], {
        env: { ...process.env, TOOLSEARCH_TOPOLOGY: 'cluster', TOOLSEARCH_TENANTS: 'demo' },
        stdio: 'ignore',
      });
      const env = Object.fromEntries(
        readFileSync(join(dir, 's/toolsearchd/toolsearchd.env'), 'utf8')
          .split('\n')
          .filter((line) => line.includes('='))
          .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
      );
      const compose = parse(read('docker-compose.cluster.yml'), { merge: true }) as {
        services: Record<string, { environment?: Record<string, string> }>;
      };
      const config = loadDaemonConfig(join(dir, 's/toolsearchd/toolsearchd.yaml'), {
        ...env,
        ...compose.services['toolsearchd']?.environment,
      });
      expect(config.redis).toMatchObject({ mode: 'sentinel', name: 'toolsearch' });
      expect(config.redis.sentinels).toEqual(['sentinel-1:26379', 'sentinel-2:26379', 'sentinel-3:26379']);
      expect(config.redis.sentinelPassword).toBe(env['TOOLSEARCH_REDIS_SENTINEL_PASSWORD']);
      expect(config.nats.url).toBe('nats://nats:4222,nats://nats-2:4222,nats://nats-3:4222');
      expect(config.nats.kvReplicas).toBe(3);
      expect(unauthenticated(config)).toEqual([]);
      const acl = readFileSync(join(dir, 's/redis/users.acl'), 'utf8');
      expect(acl).toMatch(/^user replica on #[0-9a-f]{64} /m);
      expect(acl).toMatch(/^user sentinel on #[0-9a-f]{64} /m);
      expect(readFileSync(join(dir, 's/redis/sentinel.env'), 'utf8')).toMatch(
        /^TOOLSEARCH_REDIS_SENTINEL_PASSWORD=.{20,}$/m,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
