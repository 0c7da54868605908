import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
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

interface ComposeService {
  image?: string;
  build?: string;
  command?: string[];
  environment?: Record<string, string> | string[];
  env_file?: unknown;
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
  deploy?: { replicas: number };
  ports?: string[];
}

const composeFile = () => parse(read('docker-compose.yml')) as { services: Record<string, ComposeService> };

function service(compose: { services: Record<string, ComposeService> }, name: string): ComposeService {
  const found = compose.services[name];
  expect(found, name).toBeDefined();
  return found as ComposeService;
}

/** A service's environment, whether written as a mapping or as `NAME=value` lines. */
const environmentOf = (definition: ComposeService): Record<string, string> =>
  Array.isArray(definition.environment)
    ? Object.fromEntries(
        definition.environment.map((entry) => [entry.split('=')[0] ?? '', entry.split('=').slice(1).join('=')]),
      )
    : (definition.environment ?? {});

/** A service's mounts: container path to what is mounted there. */
const mounts = (definition: ComposeService): Record<string, string> =>
  Object.fromEntries(
    (definition.volumes ?? []).map((volume) => {
      const [source = '', target = ''] = volume.split(':');
      return [target, source];
    }),
  );

/** The script of a `sh -c SCRIPT` command. */
function shellScript(definition: ComposeService): string {
  const [shell, flag, script, ...rest] = definition.command ?? [];
  expect([shell, flag, rest]).toEqual(['sh', '-c', []]);
  return script ?? '';
}

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
    // The NATS and Redis passwords come from the Secrets infra/README.md says how to create, never
    // literal values; nothing turns authentication off.
    for (const [name, secret] of [
      ['TOOLSEARCH_NATS_PASSWORD', 'toolsearchd-nats'],
      ['TOOLSEARCH_REDIS_PASSWORD', 'toolsearchd-redis'],
    ] as const) {
      const entry = container?.env.find((variable) => variable.name === name);
      expect(entry?.valueFrom?.secretKeyRef, name).toEqual({ name: secret, key: 'password' });
      expect(entry?.value, name).toBeUndefined();
      expect(read('infra/README.md')).toContain(`kubectl create secret generic ${secret}`);
    }
    expect(container?.env.map((variable) => variable.name)).not.toContain('TOOLSEARCH_INSECURE');

    const configMap = all.find((manifest) => manifest.kind === 'ConfigMap');
    const [configName, configText] = Object.entries(configMap?.data ?? {})[0] ?? [];
    const mount = container?.volumeMounts.find((volume) => volume.name === 'config')?.mountPath;
    expect(container?.args).toEqual(['--config', `${mount}/${configName}`]);
    const config = parseDaemonConfig(parse(configText ?? ''));
    expect(config.http.host).toBe('0.0.0.0');
    expect(configText).not.toMatch(/insecure/);
    expect(config.security.insecure).toBe(false);
    expect([config.nats.user, config.redis.username]).toEqual(['toolsearchd', 'toolsearchd']);
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

  it('docker-compose: generated secrets first, then NATS, Redis and two daemon replicas on the HTTP port', () => {
    const compose = composeFile();
    expect(Object.keys(compose.services).sort()).toEqual(['nats', 'redis', 'secrets', 'toolsearchd']);
    const daemon = service(compose, 'toolsearchd');
    expect(daemon.deploy?.replicas).toBeGreaterThanOrEqual(2);
    expect(environmentOf(daemon)['TOOLSEARCH_HTTP_HOST']).toBe('0.0.0.0');
    expect(daemon.ports?.[0]).toMatch(/:8420$/);
    expect(read('Dockerfile')).toMatch(/EXPOSE 8420/);
    // The others wait for the secrets service to have finished, not just started.
    for (const name of ['nats', 'redis', 'toolsearchd'])
      expect(service(compose, name).depends_on?.['secrets'], name).toEqual({
        condition: 'service_completed_successfully',
      });
  });

  it('docker-compose: the secrets service runs the generator with the CLI of the daemon image into a gitignored folder', () => {
    const secrets = service(composeFile(), 'secrets');
    expect(secrets.build).toBe('.');
    // The image holds the whole workspace under /app, the CLI included; the script is mounted.
    const dockerfile = read('Dockerfile');
    expect(dockerfile).toMatch(/^WORKDIR \/app$/m);
    expect(dockerfile).toMatch(/^COPY services \.\/services$/m);
    expect(existsSync(file('services/toolsearch-cli/bin/toolsearch.mjs'))).toBe(true);
    expect(secrets.command).toEqual(['node', 'infra/compose/make-secrets.mjs', '/secrets']);
    expect(existsSync(file('infra/compose/make-secrets.mjs'))).toBe(true);
    expect(mounts(secrets)).toEqual({ '/app/infra/compose': './infra/compose', '/secrets': './.toolsearch/secrets' });
    expect(read('.gitignore').split('\n')).toContain('.toolsearch/');
    expect(environmentOf(secrets)['TOOLSEARCH_TENANTS']).toBe('${TOOLSEARCH_TENANTS:-demo}');
  });

  it('docker-compose: NATS and Redis start from the generated config and ACL file; the daemon gets both credentials', () => {
    const compose = composeFile();
    const nats = service(compose, 'nats');
    expect(nats.image).toMatch(/^nats:2\.10-alpine$/);
    expect(mounts(nats)['/secrets']).toBe('./.toolsearch/secrets/nats');
    const natsScript = shellScript(nats);
    // Passwords reach nats-server through its environment; JetStream's folder is set in the
    // generated file (nats-server refuses -sd next to store_dir).
    expect(natsScript).toMatch(/set -a; \. \/secrets\/nats\.env; set \+a; exec nats-server -c \/secrets\/nats\.conf$/);
    expect(natsScript).not.toMatch(/-sd|--store_dir/);

    const redis = service(compose, 'redis');
    const [binary, conf, ...rest] = redis.command ?? [];
    expect(binary).toBe('redis-server');
    expect(mounts(redis)[conf ?? '']).toBe('./infra/redis.conf');
    expect(rest).toEqual(['--aclfile', '/secrets/users.acl']);
    expect(mounts(redis)['/secrets']).toBe('./.toolsearch/secrets/redis');

    const daemon = service(compose, 'toolsearchd');
    expect(mounts(daemon)['/secrets']).toBe('./.toolsearch/secrets/toolsearchd');
    expect(shellScript(daemon)).toMatch(
      /^set -a; \. \/secrets\/toolsearchd\.env; set \+a; exec node services\/toolsearchd\/dist\/main\.js --config \/secrets\/toolsearchd\.yaml$/,
    );
    expect(read('Dockerfile')).toContain('"services/toolsearchd/dist/main.js"');
  });

  it('docker-compose: nothing runs insecure and no password, key or token is written in the file', () => {
    const text = read('docker-compose.yml');
    const compose = composeFile();
    expect(text).not.toMatch(/INSECURE/i);
    for (const [name, definition] of Object.entries(compose.services)) {
      const names = Object.keys(environmentOf(definition));
      expect(
        names.filter((variable) => /PASSWORD|TOKEN|CREDENTIAL|NKEY|CREDS/.test(variable)),
        name,
      ).toEqual([]);
      expect(definition.env_file, name).toBeUndefined();
      expect(JSON.stringify(definition.command ?? ''), name).not.toMatch(/requirepass|--pass|--user\b/);
    }
    // No credential in a URL, no key, no digest or hex password.
    expect(text).not.toMatch(/:\/\/[^\s/@]+@/);
    expect(text).not.toMatch(/tsk_[A-Za-z0-9_-]{8,}/);
    expect(text).not.toMatch(/[0-9a-f]{32,}/i);
  });

  it('infra/redis.conf keeps data (AOF) and never evicts; the example config is valid as written', () => {
    const redis = read('infra/redis.conf');
    expect(redis).toMatch(/^appendonly yes$/m);
    expect(redis).toMatch(/^maxmemory-policy noeviction$/m);
    const example = loadDaemonConfig(file('infra/toolsearchd.example.yaml'), {});
    expect(example.http).toEqual({
      ...parseDaemonConfig({}).http,
      enabled: true,
      host: '0.0.0.0',
      port: 8420,
      mcpIdleMs: 1_800_000,
    });
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
