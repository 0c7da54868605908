import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { loadDaemonConfig, parseDaemonConfig } from '../src/config';
import { unauthenticated } from '../src/connections';

// Docker and Kubernetes cannot run here: these tests check that the deployment files parse, agree
// with each other and with the daemon (ports, probes, config keys), and keep secrets out.
const file = (path: string) => fileURLToPath(new URL(`../../../${path}`, import.meta.url));
const read = (path: string) => readFileSync(file(path), 'utf8');

type Manifest = {
  kind: string;
  metadata: { name: string };
  spec?: Record<string, unknown>;
  data?: Record<string, string>;
};

function manifests(): Manifest[] {
  const kustomization = parse(read('infra/k8s/kustomization.yaml')) as { resources: string[] };
  return kustomization.resources.flatMap((resource) =>
    parseAllDocuments(read(`infra/k8s/${resource}`)).map((document) => {
      expect(document.errors).toEqual([]);
      return document.toJS() as Manifest;
    }),
  );
}

describe('deployment files', () => {
  it('Kubernetes: several replicas probing /healthz and /readyz, a Service on the same port, a valid daemon config', () => {
    const all = manifests();
    expect(all.map((manifest) => manifest.kind).sort()).toEqual(['ConfigMap', 'Deployment', 'Service']);
    const deployment = all.find((manifest) => manifest.kind === 'Deployment') as Manifest & {
      spec: { replicas: number; template: { spec: { containers: Record<string, unknown>[] } } };
    };
    expect(deployment.spec.replicas).toBeGreaterThanOrEqual(2);
    const [container] = deployment.spec.template.spec.containers as {
      ports: { name: string; containerPort: number }[];
      readinessProbe: { httpGet: { path: string; port: string } };
      livenessProbe: { httpGet: { path: string; port: string } };
      env: { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string } } }[];
      args: string[];
      volumeMounts: { name: string; mountPath: string }[];
    }[];
    expect(container?.readinessProbe.httpGet.path).toBe('/readyz');
    expect(container?.livenessProbe.httpGet.path).toBe('/healthz');
    // The NATS and Redis passwords come from Secrets, never literal values.
    for (const name of ['TOOLSEARCH_NATS_PASSWORD', 'TOOLSEARCH_REDIS_PASSWORD']) {
      const entry = container?.env.find((variable) => variable.name === name);
      expect(entry?.valueFrom?.secretKeyRef, name).toBeDefined();
      expect(entry?.value, name).toBeUndefined();
    }

    const configMap = all.find((manifest) => manifest.kind === 'ConfigMap');
    const [configName, configText] = Object.entries(configMap?.data ?? {})[0] ?? [];
    const mount = container?.volumeMounts.find((volume) => volume.name === 'config')?.mountPath;
    expect(container?.args).toEqual(['--config', `${mount}/${configName}`]);
    const config = parseDaemonConfig(parse(configText ?? ''));
    expect(config.http.host).toBe('0.0.0.0');
    // No credential in a URL; with the Secrets' passwords, nothing is left unauthenticated.
    expect(`${config.nats.url} ${config.redis.url}`).not.toContain('@');
    const secrets = { TOOLSEARCH_NATS_PASSWORD: 'n', TOOLSEARCH_REDIS_PASSWORD: 'r' };
    const configPath = join(mkdtempSync(join(tmpdir(), 'toolsearchd-k8s-')), 'toolsearchd.yaml');
    writeFileSync(configPath, configText ?? '');
    expect(unauthenticated(loadDaemonConfig(configPath, secrets))).toEqual([]);
    const http = container?.ports.find((port) => port.name === 'http');
    expect(http?.containerPort).toBe(config.http.port);

    const service = all.find((manifest) => manifest.kind === 'Service') as Manifest & {
      spec: { ports: { port: number; targetPort: string }[]; selector: Record<string, string> };
    };
    expect(service.spec.ports[0]?.targetPort).toBe('http');
    expect(service.spec.selector).toEqual(
      (deployment.spec as unknown as { selector: { matchLabels: Record<string, string> } }).selector.matchLabels,
    );
  });

  it('docker-compose: NATS with JetStream, Redis with AOF and noeviction, two daemon replicas on the HTTP port', () => {
    const compose = parse(read('docker-compose.yml')) as {
      services: Record<
        string,
        { command?: string[]; environment?: Record<string, string>; deploy?: { replicas: number }; ports?: string[] }
      >;
    };
    expect(Object.keys(compose.services).sort()).toEqual(['nats', 'redis', 'toolsearchd']);
    expect(compose.services['nats']?.command).toContain('-js');
    expect(compose.services['redis']?.command).toEqual(expect.arrayContaining(['--appendonly', 'yes', 'noeviction']));
    const daemon = compose.services['toolsearchd'];
    expect(daemon?.deploy?.replicas).toBeGreaterThanOrEqual(2);
    expect(daemon?.environment?.['TOOLSEARCH_HTTP_HOST']).toBe('0.0.0.0');
    expect(daemon?.ports?.[0]).toMatch(/:8420$/);
    expect(read('Dockerfile')).toMatch(/EXPOSE 8420/);
  });

  it('infra/redis.conf keeps data (AOF) and never evicts; the example config is valid as written', () => {
    const redis = read('infra/redis.conf');
    expect(redis).toMatch(/^appendonly yes$/m);
    expect(redis).toMatch(/^maxmemory-policy noeviction$/m);
    const example = loadDaemonConfig(file('infra/toolsearchd.example.yaml'), {});
    expect(example.http).toEqual({ enabled: true, host: '0.0.0.0', port: 8420, mcpIdleMs: 1_800_000 });
    expect(example.tenants['acme']?.apiKeys[0]?.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('infra/redis.conf turns ACLs on from a generated file and holds no password itself', () => {
    const redis = read('infra/redis.conf');
    const settings = redis.split('\n').filter((line) => line.trim() !== '' && !line.trimStart().startsWith('#'));
    // Users come from the file the credentials command writes; redis-acl.int.test.ts runs this
    // file with one and shows what each user can reach.
    expect(settings).toContainEqual(expect.stringMatching(/^aclfile \/\S+\.acl$/));
    expect(redis).toMatch(/toolsearch credentials redis/);
    // No user, password or hash is written into the shipped file.
    for (const line of settings) expect(line).not.toMatch(/^(requirepass|masterauth|user)\b|[>#][0-9a-f]{64}/);
  });
});
