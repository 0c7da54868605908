// The NATS and Redis of `npm start`: this run's own servers, on free loopback ports, with
// authentication on. Secrets are generated for this run by the project's own CLI (`toolsearch
// credentials nats|redis|key`) into a private folder (mode 0700, files 0600) and never printed
// except through the env file a client sources. Nothing else on the machine is touched: another
// NATS or Redis on the usual ports, other runs and the test suite keep their own servers.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePorts, hasBinary, installWithApt, untilListening } from './ensure-services.mjs';

function readEnv(path) {
  const values = {};
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const equals = line.indexOf('=');
    if (equals > 0) values[line.slice(0, equals)] = line.slice(equals + 1);
  }
  return values;
}

function need(binary, pkg) {
  if (hasBinary(binary) || installWithApt([pkg])) return;
  throw new Error(
    `${binary} is not installed. Install it (Debian: apt-get install ${pkg}), or point TOOLSEARCH_NATS_URL / TOOLSEARCH_REDIS_URL at servers you run, with their credentials.`,
  );
}

/**
 * Starts nats-server (infra/nats.conf's users, generated for `tenants`) and redis-server
 * (infra/redis.conf with a generated ACL file), and mints one daemon credential key per tenant
 * with every role (the demo's operator). Returns the daemon's environment, each tenant's client
 * environment, the keys' config entries, and `stop()`.
 */
export async function startSecureServices(root, tenants, prefix = 'toolsearch:') {
  need('nats-server', 'nats-server');
  need('redis-server', 'redis-server');
  const dir = mkdtempSync(join(tmpdir(), 'toolsearch-run-'));
  chmodSync(dir, 0o700);
  const cli = (...args) => {
    const result = spawnSync(process.execPath, [join(root, 'services/toolsearch-cli/bin/toolsearch.mjs'), ...args], {
      cwd: root,
      encoding: 'utf8',
    });
    if (result.status !== 0) throw new Error(`toolsearch ${args.slice(0, 2).join(' ')} failed: ${result.stderr}`);
    return result.stdout;
  };
  const [natsPort, redisPort] = await freePorts(2);
  const list = tenants.join(',');
  cli(
    'credentials',
    'nats',
    '--tenants',
    list,
    '--conf',
    join(dir, 'nats.conf'),
    '--secrets-file',
    join(dir, 'nats.env'),
    '--port',
    String(natsPort),
    '--store-dir',
    join(dir, 'jetstream'),
  );
  cli(
    'credentials',
    'redis',
    '--tenants',
    list,
    '--prefix',
    prefix,
    '--acl-file',
    join(dir, 'users.acl'),
    '--secrets-file',
    join(dir, 'redis.env'),
  );
  const nats = readEnv(join(dir, 'nats.env'));
  const redis = readEnv(join(dir, 'redis.env'));
  const keys = tenants.map((tenant) =>
    JSON.parse(
      cli(
        'credentials',
        'key',
        '--name',
        `${tenant}-admin`,
        '--tenants',
        tenant,
        '--roles',
        'gateway,operator,approver',
        '--json',
      ),
    ),
  );

  const children = [
    spawn('nats-server', ['-c', join(dir, 'nats.conf'), '-a', '127.0.0.1'], {
      env: { ...process.env, ...nats },
      stdio: 'ignore',
    }),
    spawn(
      'redis-server',
      [
        join(root, 'infra/redis.conf'),
        '--port',
        String(redisPort),
        '--bind',
        '127.0.0.1',
        '--dir',
        dir,
        '--aclfile',
        join(dir, 'users.acl'),
        '--appendonly',
        'no',
      ],
      { stdio: 'ignore' },
    ),
  ];
  const stop = await untilListening(children, natsPort, redisPort);
  const natsUrl = `nats://127.0.0.1:${natsPort}`;
  const clients = {};
  tenants.forEach((tenant, index) => {
    const user = `${tenant}-operator`;
    const env = {
      TOOLSEARCH_NATS_URL: natsUrl,
      TOOLSEARCH_NATS_USER: user,
      TOOLSEARCH_NATS_PASSWORD: nats[`${user.toUpperCase().replace(/-/g, '_')}_NATS_PASSWORD`],
      TOOLSEARCH_TENANT: tenant,
      TOOLSEARCH_CREDENTIAL: keys[index].key,
    };
    const file = join(dir, `${tenant}.env`);
    writeFileSync(
      file,
      `${Object.entries(env)
        .map(([name, value]) => `${name}=${value}`)
        .join('\n')}\n`,
      { mode: 0o600 },
    );
    clients[tenant] = { env, file, user };
  });
  return {
    dir,
    natsUrl,
    redisUrl: `redis://127.0.0.1:${redisPort}`,
    daemonEnv: {
      TOOLSEARCH_NATS_URL: natsUrl,
      TOOLSEARCH_NATS_USER: 'toolsearchd',
      TOOLSEARCH_NATS_PASSWORD: nats.TOOLSEARCH_NATS_PASSWORD,
      TOOLSEARCH_REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      TOOLSEARCH_REDIS_USERNAME: redis.TOOLSEARCH_REDIS_USERNAME,
      TOOLSEARCH_REDIS_PASSWORD: redis.TOOLSEARCH_REDIS_PASSWORD,
    },
    clients,
    credentials: keys.map(({ entry }) => entry),
    stop,
  };
}
