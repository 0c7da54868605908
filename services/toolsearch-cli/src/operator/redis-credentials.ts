import {
  aclLine,
  DAEMON_REDIS_USER,
  DEFAULT_USER_LINE,
  newRedisPassword,
  parseAclFile,
  passwordHash,
  redisAclUsers,
  replicationAclUsers,
  REPLICA_REDIS_USER,
  SENTINEL_REDIS_USER,
} from './redis-acl';

/** What happened to one managed user's password. */
export type CredentialStatus = 'new' | 'kept' | 'rotated';

/** One user of the plan; `password` only when it was generated now (Redis keeps no plain text). */
export interface PlannedCredential {
  readonly name: string;
  readonly tenant: string | undefined;
  readonly keys: string;
  readonly status: CredentialStatus;
  /** The environment variable its password goes to (see `passwordVariable`). */
  readonly variable: string;
  readonly password: string | undefined;
}

/** A generated ACL file and what it means for each user. */
export interface RedisCredentialsPlan {
  /** The whole ACL file (`users.acl` format). */
  readonly aclFile: string;
  readonly users: readonly PlannedCredential[];
  /** Worker users of the previous file whose tenant is no longer listed: they are gone. */
  readonly removed: readonly { name: string; variable: string }[];
}

/**
 * The environment variable of a user's password: the daemon's is the daemon's own
 * (`TOOLSEARCH_REDIS_PASSWORD`); a tenant's worker password is
 * `TOOLSEARCH_WORKER_REDIS_PASSWORD_<TENANT>` (upper case, `-` as `_`; tenant ids have no `_`, so
 * two tenants never share a name).
 */
export function passwordVariable(name: string): string {
  if (name === DAEMON_REDIS_USER) return 'TOOLSEARCH_REDIS_PASSWORD';
  if (name === REPLICA_REDIS_USER) return 'TOOLSEARCH_REDIS_REPLICA_PASSWORD';
  if (name === SENTINEL_REDIS_USER) return 'TOOLSEARCH_REDIS_SENTINEL_AUTH_PASSWORD';
  return `TOOLSEARCH_WORKER_REDIS_PASSWORD_${name
    .replace(/^worker-/, '')
    .toUpperCase()
    .replace(/-/g, '_')}`;
}

/**
 * Plans the ACL users of a deployment: the daemon user, one worker user per tenant, the default
 * user off. With a previous file, a user that stays keeps its password hashes (no one has to be
 * given a new password when a tenant is added) unless `rotate` asks for new ones; lines of users
 * the generator does not manage (an operator's own admin user) are carried over as they were.
 * `replication` adds the users of replicas and Sentinels (`replica`, `sentinel`).
 */
export function planRedisCredentials(options: {
  prefix: string;
  tenants: readonly string[];
  previous?: string | undefined;
  rotate?: boolean;
  replication?: boolean;
  generate?: () => string;
}): RedisCredentialsPlan {
  const generate = options.generate ?? newRedisPassword;
  const previous = parseAclFile(options.previous ?? '');
  const wanted = [
    ...redisAclUsers(options.prefix, options.tenants),
    ...(options.replication === true ? replicationAclUsers() : []),
  ];
  const users: PlannedCredential[] = [];
  const lines = [DEFAULT_USER_LINE];
  for (const user of wanted) {
    const before = previous.get(user.name)?.hashes ?? [];
    const keep = before.length > 0 && options.rotate !== true;
    const password = keep ? undefined : generate();
    lines.push(aclLine(user, password === undefined ? before : [passwordHash(password)]));
    users.push({
      name: user.name,
      tenant: user.tenant,
      keys: user.keys,
      status: keep ? 'kept' : before.length > 0 ? 'rotated' : 'new',
      variable: passwordVariable(user.name),
      password,
    });
  }
  const managed = new Set(wanted.map((user) => user.name));
  const removed: { name: string; variable: string }[] = [];
  for (const [name, { line }] of previous) {
    if (name === 'default' || managed.has(name)) continue;
    if (name.startsWith('worker-')) removed.push({ name, variable: passwordVariable(name) });
    else lines.push(line);
  }
  return { aclFile: `${lines.join('\n')}\n`, users, removed };
}

/**
 * An env file (`KEY=value` lines) with `set` written in and `remove` taken out; other lines and
 * comments stay where they were, new keys go at the end.
 */
export function mergeEnvFile(
  previous: string | undefined,
  set: Readonly<Record<string, string>>,
  remove: readonly string[] = [],
): string {
  const pending = new Map(Object.entries(set));
  const gone = new Set(remove);
  const lines: string[] = [];
  for (const line of (previous ?? '').split(/\r?\n/)) {
    const key = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=/.exec(line)?.[1];
    if (key !== undefined && gone.has(key)) continue;
    if (key !== undefined && pending.has(key)) {
      lines.push(`${key}=${pending.get(key) ?? ''}`);
      pending.delete(key);
      continue;
    }
    lines.push(line);
  }
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  for (const [key, value] of pending) lines.push(`${key}=${value}`);
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}
