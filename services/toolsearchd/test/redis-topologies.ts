import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { eventually, exited, freePort } from './harness';

/** Why Redis Cluster and Sentinel tests cannot run here, or undefined when they can. */
export function redisBinariesMissing(): string | undefined {
  for (const binary of ['redis-server', 'redis-cli'])
    if (spawnSync(binary, ['--version'], { stdio: 'ignore' }).error !== undefined)
      return `${binary} is not installed: the Redis Cluster and Sentinel tests start their own servers`;
  return undefined;
}

const CLI = fileURLToPath(new URL('../../toolsearch-cli/bin/toolsearch.mjs', import.meta.url));
export const REDIS_CONF = fileURLToPath(new URL('../../../infra/redis.conf', import.meta.url));
/** A user for the test itself (creating the cluster, reading slots); not part of what ships. */
export const ADMIN = { username: 'admin', password: 'admin-password-of-the-test' };

/**
 * Runs `toolsearch credentials redis` (the shipped generator) for `tenants` and adds the test's
 * admin user; returns the ACL file and the secrets it wrote.
 */
export async function generateAcl(
  dir: string,
  prefix: string,
  tenants: readonly string[],
  options: { replication?: boolean } = {},
): Promise<{ aclFile: string; secrets: Record<string, string> }> {
  const aclFile = join(dir, 'users.acl');
  const secretsFile = join(dir, 'secrets.env');
  const args = ['credentials', 'redis', '--tenants', tenants.join(','), '--prefix', prefix];
  if (options.replication === true) args.push('--replication');
  await new Promise<void>((resolve, reject) =>
    execFile(
      process.execPath,
      [CLI, ...args, '--acl-file', aclFile, '--secrets-file', secretsFile],
      { timeout: 60_000 },
      (error, _stdout, stderr) => (error ? reject(new Error(`${error.message}: ${stderr}`)) : resolve()),
    ),
  );
  writeFileSync(aclFile, `${readFileSync(aclFile, 'utf8').trimEnd()}\nuser admin on >${ADMIN.password} ~* &* +@all\n`);
  const secrets = Object.fromEntries(
    readFileSync(secretsFile, 'utf8')
      .split('\n')
      .filter((line) => line.includes('='))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
  return { aclFile, secrets };
}

/** The password variable of a tenant's worker user in the generated secrets. */
export function workerPasswordVariable(tenant: string): string {
  return `TOOLSEARCH_WORKER_REDIS_PASSWORD_${tenant.toUpperCase().replace(/-/g, '_')}`;
}

export interface RedisNode {
  readonly port: number;
  process: ChildProcess;
  readonly args: readonly string[];
}

/** Servers a test started, all killed and their folders removed by `stop()`. */
export class LocalRedis {
  readonly nodes: RedisNode[] = [];
  readonly dir = mkdtempSync(join(tmpdir(), 'toolsearch-redis-topology-'));

  /**
   * Starts `redis-server` from a copy of infra/redis.conf (ACLs from `aclFile`) with `extra`
   * arguments. A copy, because a Sentinel failover sends CONFIG REWRITE to the servers it
   * reconfigures, which would write this test's ports into the shipped file.
   */
  async server(aclFile: string, extra: readonly string[], port?: number): Promise<RedisNode> {
    const chosen = port ?? (await freePort());
    const conf = join(this.dir, `redis-${chosen}.conf`);
    copyFileSync(REDIS_CONF, conf);
    const args = [conf, '--port', String(chosen), '--bind', '127.0.0.1', '--dir', this.dir];
    args.push('--aclfile', aclFile, '--appendonly', 'no', '--save', '', ...extra);
    const node: RedisNode = { port: chosen, process: spawn('redis-server', args, { stdio: 'ignore' }), args };
    this.nodes.push(node);
    await this.#answers(chosen);
    return node;
  }

  /**
   * Starts a Sentinel watching `primaryPort` as `name` (quorum 2, a primary is down after 1 s),
   * logging in to the data nodes as `auth` and requiring `password` of its own clients.
   */
  async sentinel(
    name: string,
    primaryPort: number,
    auth: { username: string; password: string },
    password: string,
  ): Promise<RedisNode> {
    const port = await freePort();
    const conf = join(this.dir, `sentinel-${port}.conf`);
    writeFileSync(
      conf,
      [
        `port ${port}`,
        'bind 127.0.0.1',
        `dir ${this.dir}`,
        `sentinel monitor ${name} 127.0.0.1 ${primaryPort} 2`,
        `sentinel down-after-milliseconds ${name} 1000`,
        `sentinel failover-timeout ${name} 10000`,
        `sentinel parallel-syncs ${name} 1`,
        `sentinel auth-user ${name} ${auth.username}`,
        `sentinel auth-pass ${name} ${auth.password}`,
        `requirepass ${password}`,
        // Sentinels talk to each other with the password they require.
        `sentinel sentinel-pass ${password}`,
        '',
      ].join('\n'),
    );
    const node: RedisNode = {
      port,
      process: spawn('redis-server', [conf, '--sentinel'], { stdio: 'ignore' }),
      args: [conf, '--sentinel'],
    };
    this.nodes.push(node);
    await this.#answers(port, password);
    return node;
  }

  /** Waits until a server on `port` answers PING (as the admin, or with `password` for a Sentinel). */
  async #answers(port: number, password?: string): Promise<void> {
    await eventually(async () => {
      const probe = this.admin(port, password === undefined ? ADMIN : { password });
      try {
        await probe.ping();
      } finally {
        probe.disconnect();
      }
    }, 15_000);
  }

  /** A plain connection to one node as the test's admin (or with `auth`, e.g. a Sentinel's password). */
  admin(port: number, auth: { username?: string; password: string } = ADMIN): Redis {
    const redis = new Redis({
      host: '127.0.0.1',
      port,
      ...auth,
      lazyConnect: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    redis.on('error', () => undefined);
    return redis;
  }

  async kill(node: RedisNode): Promise<void> {
    node.process.kill('SIGKILL');
    await exited(node.process);
  }

  /** Starts a killed server again with its arguments (a cluster node keeps its nodes file). */
  async restart(node: RedisNode): Promise<void> {
    node.process = spawn('redis-server', [...node.args], { stdio: 'ignore' });
    await this.#answers(node.port);
  }

  async stop(): Promise<void> {
    for (const node of this.nodes) node.process.kill('SIGKILL');
    await Promise.all(this.nodes.map((node) => exited(node.process)));
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * A Redis Cluster of three masters (no replicas) on free ports, ACLs from `aclFile`; resolves once
 * every node reports `cluster_state:ok`.
 */
export async function startCluster(local: LocalRedis, aclFile: string): Promise<RedisNode[]> {
  const masters: RedisNode[] = [];
  for (let index = 0; index < 3; index++) {
    const port = await freePort();
    const config = join(local.dir, `nodes-${port}.conf`);
    // A master that stops answering is marked failed after 2 s; the slots of the others keep being
    // served meanwhile (no full coverage required), as a deployment with replicas would.
    const cluster = ['--cluster-enabled', 'yes', '--cluster-config-file', config, '--cluster-node-timeout', '2000'];
    masters.push(await local.server(aclFile, [...cluster, '--cluster-require-full-coverage', 'no'], port));
  }
  const addresses = masters.map((node) => `127.0.0.1:${node.port}`);
  const args = ['--user', ADMIN.username, '--pass', ADMIN.password, '--no-auth-warning'];
  args.push('--cluster', 'create', ...addresses, '--cluster-replicas', '0', '--cluster-yes');
  await new Promise<void>((resolve, reject) =>
    execFile('redis-cli', args, { timeout: 30_000 }, (error, stdout) =>
      error ? reject(new Error(`${error.message}: ${stdout}`)) : resolve(),
    ),
  );
  for (const node of masters)
    await eventually(async () => {
      const redis = local.admin(node.port);
      try {
        const info = String(await redis.call('CLUSTER', 'INFO'));
        if (!info.includes('cluster_state:ok')) throw new Error(`node ${node.port}: ${info.split('\n')[0]}`);
      } finally {
        redis.disconnect();
      }
    }, 20_000);
  return masters;
}

// CRC16/XMODEM, as Redis Cluster hashes a key's tag to one of 16,384 slots.
function crc16(text: string): number {
  let crc = 0;
  for (const byte of Buffer.from(text)) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

/** The slot of a key: its first non-empty `{…}` tag, else the whole key. */
export function keySlot(key: string): number {
  const open = key.indexOf('{');
  const close = open < 0 ? -1 : key.indexOf('}', open + 1);
  return crc16(close > open + 1 ? key.slice(open + 1, close) : key) % 16_384;
}
