// Generates everything docker-compose.yml needs to run NATS, Redis and toolsearchd with
// authentication on: the NATS server config and its passwords, the Redis ACL file and its
// passwords, credential keys, the daemon's config and credentials, and one ready-to-use env file per
// client role. The `secrets` service of docker-compose.yml runs it before anything else starts;
// services/toolsearchd/test/compose-secrets.int.test.ts runs it the same way and starts the servers
// from what it wrote.
//
//   node infra/compose/make-secrets.mjs DIR
//
// DIR (the compose file mounts ./.toolsearch/secrets there) gets:
//   nats/nats.conf, nats/nats.env          nats-server's config (users, no passwords) and its users' passwords
//   redis/users.acl                        Redis ACL users (passwords only as SHA-256)
//   toolsearchd/toolsearchd.yaml           the daemon's config: URLs, users, credential keys by SHA-256
//   toolsearchd/toolsearchd.env            the daemon's NATS and Redis user and password
//   redis.env                              every Redis password (the daemon's, each tenant's workers')
//   <tenant>-gateway.env, -approver.env, -operator.env
//                                          a client's NATS URL, user and password, tenant and credential key
// A service mounts only its own subfolder. When DIR already holds a complete set, nothing changes
// (passwords and keys stay valid across restarts); a partial set is an error, never overwritten.
//
// Environment: TOOLSEARCH_TENANTS (comma-separated tenant ids, default `demo`),
// TOOLSEARCH_NATS_STORE_DIR (JetStream data folder inside the nats container, default /data),
// TOOLSEARCH_CLIENT_NATS_URL (the URL written into the client files, default nats://localhost:4222),
// TOOLSEARCH_SECRETS_UID / TOOLSEARCH_SECRETS_GID (when run as root: who owns the files, default
// 1000:1000, the toolsearchd image's `node` user and usually the first user of a Linux host),
// TOOLSEARCH_TOPOLOGY (`single`, the default, or `cluster`: docker-compose.cluster.yml's three NATS
// nodes and Redis primary, replica and three Sentinels). With `cluster`, DIR also gets
//   redis/replication.env                  the replicas' `replica` user password (masterauth)
//   redis/sentinel.env                     the Sentinels' `sentinel` user password and their own password
// and the daemon's config names the Sentinels and asks for the registry bucket at 3 replicas.
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../../services/toolsearch-cli/bin/toolsearch.mjs', import.meta.url));
const CLIENT_ROLES = ['gateway', 'approver', 'operator'];
// What nats, redis and toolsearchd need; their presence means the set is complete (written last).
const SERVER_FILES = [
  'nats/nats.conf',
  'nats/nats.env',
  'redis/users.acl',
  'redis.env',
  'toolsearchd/toolsearchd.yaml',
  'toolsearchd/toolsearchd.env',
];
// Readable by the containers' own users (Redis runs as `redis`): these hold no secret.
const PUBLIC_FILES = new Set(['nats/nats.conf', 'redis/users.acl', 'toolsearchd/toolsearchd.yaml']);

function fail(message) {
  process.stderr.write(`make-secrets: ${message}\n`);
  process.exit(1);
}

function cli(args) {
  return execFileSync(process.execPath, [CLI, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
}

function readEnv(path) {
  const values = {};
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const equals = line.indexOf('=');
    if (equals > 0 && !line.startsWith('#')) values[line.slice(0, equals)] = line.slice(equals + 1);
  }
  return values;
}

const envText = (values) =>
  `${Object.entries(values)
    .map(([key, value]) => `${key}=${value}`)
    .join('\n')}\n`;

const dir = process.argv[2];
if (dir === undefined || process.argv.length > 3) fail('usage: node infra/compose/make-secrets.mjs DIR');
const tenants = (process.env['TOOLSEARCH_TENANTS'] || 'demo')
  .split(',')
  .map((tenant) => tenant.trim())
  .filter((tenant) => tenant !== '');
const bad = tenants.find((tenant) => !/^[a-z0-9][a-z0-9-]{0,62}$/.test(tenant));
if (tenants.length === 0 || bad !== undefined)
  fail(`TOOLSEARCH_TENANTS: '${bad ?? ''}' is not a tenant id (a-z, 0-9 and -, comma-separated).`);
const storeDir = process.env['TOOLSEARCH_NATS_STORE_DIR'] || '/data';
const topology = process.env['TOOLSEARCH_TOPOLOGY'] || 'single';
if (topology !== 'single' && topology !== 'cluster')
  fail(`TOOLSEARCH_TOPOLOGY: '${topology}' is not single or cluster.`);
const clustered = topology === 'cluster';
if (clustered) SERVER_FILES.push('redis/replication.env', 'redis/sentinel.env');
const clientUrl = process.env['TOOLSEARCH_CLIENT_NATS_URL'] || 'nats://localhost:4222';

mkdirSync(dir, { recursive: true });
const present = SERVER_FILES.filter((file) => existsSync(join(dir, file)));
if (present.length === SERVER_FILES.length) {
  process.stdout.write(`make-secrets: ${dir} already holds the secrets; keeping them.\n`);
  process.exit(0);
}
if (present.length > 0)
  fail(
    `${dir} holds ${present.join(', ')} but not ${SERVER_FILES.filter((file) => !present.includes(file)).join(', ')}. ` +
      'Empty the folder to generate a new set (every password and key changes).',
  );

// Everything is written to a staging folder first and moved into place at the end, so a failure
// leaves DIR as it was.
const stage = join(dir, '.new');
rmSync(stage, { recursive: true, force: true });
for (const sub of ['nats', 'redis', 'toolsearchd']) mkdirSync(join(stage, sub), { recursive: true, mode: 0o700 });
const written = [];
const write = (file, text) => {
  writeFileSync(join(stage, file), text, { mode: PUBLIC_FILES.has(file) ? 0o644 : 0o600 });
  written.push(file);
};

try {
  const list = tenants.join(',');
  process.stdout.write(
    cli([
      'credentials',
      'nats',
      '--tenants',
      list,
      '--conf',
      join(stage, 'nats/nats.conf'),
      '--secrets-file',
      join(stage, 'nats/nats.env'),
      '--store-dir',
      storeDir,
    ]),
  );
  written.push('nats/nats.conf', 'nats/nats.env');
  process.stdout.write(
    cli([
      'credentials',
      'redis',
      '--tenants',
      list,
      '--acl-file',
      join(stage, 'redis/users.acl'),
      '--secrets-file',
      join(stage, 'redis.env'),
      ...(clustered ? ['--replication'] : []),
    ]),
  );
  written.push('redis/users.acl', 'redis.env');
  const nats = readEnv(join(stage, 'nats/nats.env'));
  const redis = readEnv(join(stage, 'redis.env'));
  for (const [file, values, keys] of [
    ['nats.env', nats, ['TOOLSEARCH_NATS_USER', 'TOOLSEARCH_NATS_PASSWORD']],
    ['redis.env', redis, ['TOOLSEARCH_REDIS_USERNAME', 'TOOLSEARCH_REDIS_PASSWORD']],
  ])
    for (const key of keys) if (!values[key]) throw new Error(`the CLI wrote no ${key} to ${file}`);

  // One key per tenant and role, each for one tenant only.
  const entries = [];
  for (const tenant of tenants)
    for (const role of CLIENT_ROLES) {
      const name = `${tenant}-${role}`;
      const { key, entry } = JSON.parse(
        cli(['credentials', 'key', '--name', name, '--tenants', tenant, '--roles', role, '--json']),
      );
      entries.push(entry);
      const variable = `${name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_NATS_PASSWORD`;
      // What a client of this role needs, in the variables the toolsearch CLI reads.
      write(
        `${name}.env`,
        envText({
          TOOLSEARCH_NATS_URL: clientUrl,
          TOOLSEARCH_NATS_USER: name,
          TOOLSEARCH_NATS_PASSWORD: nats[variable],
          TOOLSEARCH_NATS_INBOX_PREFIX: `_INBOX_${name}`,
          TOOLSEARCH_TENANT: tenant,
          TOOLSEARCH_CREDENTIAL: key,
        }),
      );
    }

  if (clustered) {
    for (const key of [
      'TOOLSEARCH_REDIS_REPLICA_PASSWORD',
      'TOOLSEARCH_REDIS_SENTINEL_AUTH_PASSWORD',
      'TOOLSEARCH_REDIS_SENTINEL_PASSWORD',
    ])
      if (!redis[key]) throw new Error(`the CLI wrote no ${key} to redis.env`);
    write(
      'redis/replication.env',
      envText({ TOOLSEARCH_REDIS_REPLICA_PASSWORD: redis['TOOLSEARCH_REDIS_REPLICA_PASSWORD'] }),
    );
    write(
      'redis/sentinel.env',
      envText({
        TOOLSEARCH_REDIS_SENTINEL_AUTH_PASSWORD: redis['TOOLSEARCH_REDIS_SENTINEL_AUTH_PASSWORD'],
        TOOLSEARCH_REDIS_SENTINEL_PASSWORD: redis['TOOLSEARCH_REDIS_SENTINEL_PASSWORD'],
      }),
    );
  }
  const q = (value) => JSON.stringify(value);
  // docker-compose.cluster.yml: three NATS nodes, Redis found through three Sentinels.
  const natsLines = clustered
    ? ['  url: nats://nats:4222,nats://nats-2:4222,nats://nats-3:4222', '  kvReplicas: 3']
    : ['  url: nats://nats:4222'];
  const redisLines = clustered
    ? ['  mode: sentinel', '  sentinels: [sentinel-1:26379, sentinel-2:26379, sentinel-3:26379]', '  name: toolsearch']
    : ['  url: redis://redis:6379'];
  write(
    'toolsearchd/toolsearchd.yaml',
    [
      '# toolsearchd in docker compose, written by infra/compose/make-secrets.mjs. No password is here:',
      '# they come from toolsearchd.env next to this file. Credential keys appear only as SHA-256; the',
      '# keys themselves are in the <tenant>-<role>.env files one folder up.',
      'nats:',
      ...natsLines,
      `  user: ${q(nats['TOOLSEARCH_NATS_USER'])}`,
      'redis:',
      ...redisLines,
      `  username: ${q(redis['TOOLSEARCH_REDIS_USERNAME'])}`,
      'http:',
      '  host: 0.0.0.0',
      '  port: 8420',
      'log:',
      '  level: info',
      'credentials:',
      ...entries.flatMap((entry) => [
        `  - name: ${q(entry.name)}`,
        `    sha256: ${q(entry.sha256)}`,
        `    tenants: [${entry.tenants.map(q).join(', ')}]`,
        `    roles: [${entry.roles.map(q).join(', ')}]`,
      ]),
      '',
    ].join('\n'),
  );
  write(
    'toolsearchd/toolsearchd.env',
    envText({
      TOOLSEARCH_NATS_USER: nats['TOOLSEARCH_NATS_USER'],
      TOOLSEARCH_NATS_PASSWORD: nats['TOOLSEARCH_NATS_PASSWORD'],
      TOOLSEARCH_REDIS_USERNAME: redis['TOOLSEARCH_REDIS_USERNAME'],
      TOOLSEARCH_REDIS_PASSWORD: redis['TOOLSEARCH_REDIS_PASSWORD'],
      ...(clustered ? { TOOLSEARCH_REDIS_SENTINEL_PASSWORD: redis['TOOLSEARCH_REDIS_SENTINEL_PASSWORD'] } : {}),
    }),
  );

  // Client files first, the servers' files last: a complete server set means a complete run.
  const order = [...written.filter((file) => !SERVER_FILES.includes(file)), ...SERVER_FILES];
  for (const file of order) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    renameSync(join(stage, file), join(dir, file));
  }
} catch (error) {
  rmSync(stage, { recursive: true, force: true });
  fail(error.message);
}
rmSync(stage, { recursive: true, force: true });

// Folders: others may enter (Redis reads users.acl as its own user) but not list. Files: the
// owner only, but for the three that hold no secret.
const folders = ['.', 'nats', 'redis', 'toolsearchd'];
const owner =
  process.getuid?.() === 0
    ? {
        uid: Number(process.env['TOOLSEARCH_SECRETS_UID'] || 1000),
        gid: Number(process.env['TOOLSEARCH_SECRETS_GID'] || 1000),
      }
    : undefined;
for (const path of [...folders, ...new Set([...SERVER_FILES, ...written])]) {
  const full = join(dir, path);
  try {
    if (owner !== undefined) chownSync(full, owner.uid, owner.gid);
    chmodSync(full, folders.includes(path) ? 0o711 : PUBLIC_FILES.has(path) ? 0o644 : 0o600);
  } catch (error) {
    process.stderr.write(`make-secrets: cannot set the owner or mode of ${full}: ${error.message}\n`);
  }
}

process.stdout.write(
  `make-secrets: wrote the secrets for ${tenants.join(', ')} to ${dir}` +
    `${owner !== undefined ? ` (owner ${owner.uid}:${owner.gid})` : ''}.\n` +
    `A client's NATS user, password, tenant and credential key: ${tenants[0]}-gateway.env, ${tenants[0]}-approver.env, ` +
    `${tenants[0]}-operator.env (set -a; . FILE; set +a — then npx toolsearch ...).\n`,
);
