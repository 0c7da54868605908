import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { CliError } from '../cli-error';
import { JSON_OPTION, parseCommandArgs } from '../command-args';
import type { CliIo } from '../io';
import type { Command } from '../command';
import { DAEMON_REDIS_USER, DEFAULT_REDIS_PREFIX, newRedisPassword, RedisAclError } from '../operator/redis-acl';
import { mergeEnvFile, planRedisCredentials, type RedisCredentialsPlan } from '../operator/redis-credentials';
import { formatTable } from '../operator/table';
import { KEY_USAGE, NATS_USAGE, runCredentialsKey, runCredentialsNats } from './credentials-nats-key';

const REDIS_USAGE = `Usage: toolsearch credentials redis --tenants T1,T2... --acl-file FILE
         [--secrets-file FILE] [--prefix PREFIX] [--replication] [--rotate] [--print-passwords] [--json]

Writes a Redis ACL file (users.acl format, for redis.conf 'aclfile'): the default user off; the
daemon user '${DAEMON_REDIS_USER}', limited to keys under PREFIX; and one user per tenant,
'worker-<tenant>', limited to that tenant's worker queues (PREFIX{<tenant>}:w:*) with only what a
BullMQ Worker needs. Passwords are random and the ACL file holds only their SHA-256.

--replication (a primary with replicas and Sentinels, docs/clustering.md) adds the user 'replica'
(replicas' masteruser: PSYNC, REPLCONF, PING) and 'sentinel' (Sentinels' auth-user), with
TOOLSEARCH_REDIS_REPLICA_PASSWORD, TOOLSEARCH_REDIS_SENTINEL_AUTH_PASSWORD, and
TOOLSEARCH_REDIS_SENTINEL_PASSWORD: the password the Sentinels require of their clients
(requirepass in sentinel.conf; the daemon reads this variable).

New passwords go to --secrets-file, an env file (KEY=value lines; created or updated, mode 0600):
TOOLSEARCH_REDIS_USERNAME and TOOLSEARCH_REDIS_PASSWORD for the daemon,
TOOLSEARCH_WORKER_REDIS_PASSWORD_<TENANT> per tenant. They are printed only with --print-passwords.
(The option is not called --env-file: Node 20 takes that as its own option wherever it appears.)

An existing --acl-file is read first: users that stay keep their passwords (add a tenant without
touching the others), workers of tenants no longer listed are removed, other users are kept as
they are. --rotate gives every managed user a new password.

PREFIX is the daemon's namespace.redisPrefix (default $TOOLSEARCH_REDIS_PREFIX, else
'${DEFAULT_REDIS_PREFIX}'). Apply the file with 'ACL LOAD' on a running Redis, or restart it.`;

const USAGE = `${KEY_USAGE}\n\n${NATS_USAGE}\n\n${REDIS_USAGE}`;

const read = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8') : undefined);

/** Writes a file only its owner can read, also when it already existed with a wider mode. */
function writePrivate(path: string, text: string): void {
  writeFileSync(path, text, { mode: 0o600 });
  chmodSync(path, 0o600);
}

function summary(plan: RedisCredentialsPlan, files: { acl: string; env: string | undefined }): string {
  const rows = plan.users.map((user) => [
    user.name,
    user.keys === '' ? '(no keys)' : `~${user.keys}`,
    user.status,
    user.variable,
  ]);
  const lines = [
    `wrote ${files.acl}: the default user off, ${plan.users.length} user(s)`,
    ...(files.env !== undefined ? [`wrote ${files.env} (mode 0600)`] : []),
    '',
    formatTable(['USER', 'KEYS', 'PASSWORD', 'VARIABLE'], rows).trimEnd(),
    ...plan.removed.map((user) => `removed ${user.name} (its tenant is not listed)`),
    '',
    "Apply with 'ACL LOAD' on the running Redis (or restart it with aclfile pointing at the file).",
  ];
  return `${lines.join('\n')}\n`;
}

export const credentialsCommand: Command = {
  summary: 'mint credential keys, and NATS users and Redis ACL users with their passwords',
  usage: USAGE,
  run(args: string[], io: CliIo): number {
    if (args[0] === 'key') return runCredentialsKey(args.slice(1), io);
    if (args[0] === 'nats') return runCredentialsNats(args.slice(1), io);
    const { values, positionals } = parseCommandArgs(args, {
      ...JSON_OPTION,
      tenants: { type: 'string', multiple: true },
      prefix: { type: 'string' },
      'acl-file': { type: 'string' },
      'secrets-file': { type: 'string' },
      rotate: { type: 'boolean', default: false },
      replication: { type: 'boolean', default: false },
      'print-passwords': { type: 'boolean', default: false },
    });
    const [kind, ...extra] = positionals;
    if (kind !== 'redis' || extra.length > 0)
      throw new CliError(`say 'credentials key', 'nats' or 'redis'.\n\n${REDIS_USAGE}`);
    const aclPath = values['acl-file'];
    if (aclPath === undefined) throw new CliError(`say where the ACL file goes: --acl-file FILE.\n\n${USAGE}`);
    const tenants = (values.tenants ?? []).flatMap((list) => list.split(',')).map((tenant) => tenant.trim());
    const envPath = values['secrets-file'];
    const show = values['print-passwords'];

    let plan: RedisCredentialsPlan;
    try {
      plan = planRedisCredentials({
        prefix: values.prefix ?? io.env['TOOLSEARCH_REDIS_PREFIX'] ?? DEFAULT_REDIS_PREFIX,
        tenants: tenants.filter((tenant) => tenant !== ''),
        previous: read(aclPath),
        rotate: values.rotate,
        replication: values.replication,
      });
    } catch (error) {
      if (error instanceof RedisAclError) throw new CliError(error.message, { cause: error });
      throw error;
    }
    const fresh = plan.users.filter((user) => user.password !== undefined);
    // A generated password exists nowhere but in this process: refuse before writing a hash no one
    // could ever log in with.
    if (fresh.length > 0 && envPath === undefined && !show)
      throw new CliError('new passwords need a place to go: --secrets-file FILE (or --print-passwords).');

    writeFileSync(aclPath, plan.aclFile, { mode: 0o644 });
    if (envPath !== undefined) {
      const set: Record<string, string> = { TOOLSEARCH_REDIS_USERNAME: DAEMON_REDIS_USER };
      for (const user of fresh) set[user.variable] = user.password ?? '';
      // The Sentinels' own password is no ACL user: kept from the file unless rotating.
      const previous = read(envPath) ?? '';
      if (values.replication && (values.rotate || !/^TOOLSEARCH_REDIS_SENTINEL_PASSWORD=./m.test(previous)))
        set['TOOLSEARCH_REDIS_SENTINEL_PASSWORD'] = newRedisPassword();
      writePrivate(
        envPath,
        mergeEnvFile(
          read(envPath),
          set,
          plan.removed.map((user) => user.variable),
        ),
      );
    }

    if (values.json) {
      const users = plan.users.map((user) => ({
        name: user.name,
        ...(user.tenant !== undefined ? { tenant: user.tenant } : {}),
        keys: user.keys === '' ? null : `~${user.keys}`,
        status: user.status,
        variable: user.variable,
        ...(show && user.password !== undefined ? { password: user.password } : {}),
      }));
      io.out(
        `${JSON.stringify({ aclFile: aclPath, envFile: envPath ?? null, users, removed: plan.removed }, null, 2)}\n`,
      );
      return 0;
    }
    io.out(summary(plan, { acl: aclPath, env: envPath }));
    if (show) for (const user of fresh) io.out(`${user.variable}=${user.password ?? ''}\n`);
    return 0;
  },
};
