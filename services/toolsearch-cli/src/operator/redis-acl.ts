import { createHash, randomBytes } from 'node:crypto';
import { TenantIdSchema, workerQueuePrefix } from '@toolsearch/proto';

/** The daemon's Redis key prefix when none is given (the daemon's `namespace.redisPrefix` default). */
export const DEFAULT_REDIS_PREFIX = 'toolsearch:';
/** The ACL user the daemon logs in as. */
export const DAEMON_REDIS_USER = 'toolsearchd';

/** The ACL user of one tenant's workers. */
export function workerRedisUser(tenant: string): string {
  return `worker-${tenant}`;
}

// The daemon owns every key under its prefix. `-@dangerous` takes away what reaches past key
// patterns or the server itself (KEYS, SORT BY, FLUSHALL, CONFIG, CLIENT KILL, MONITOR…); BullMQ
// reads INFO for the server version, so INFO comes back. Neither the daemon nor BullMQ uses Redis
// pub/sub, so no channel is allowed (`resetchannels`).
const DAEMON_COMMANDS = '+@all -@dangerous +info';

// What a BullMQ Worker sends (checked against bullmq 5.81 with MONITOR: taking, retrying, delaying,
// stall checks, lock renewal, logs, progress; services/toolsearchd/test/redis-acl.int.test.ts runs
// it): data commands, EVAL/EVALSHA for its Lua scripts, blocking pops, MULTI, connection commands
// and INFO. Key patterns stop a command from touching a key, not from listing key names, so the
// commands that list or count keys are taken away: SCAN, RANDOMKEY, DBSIZE (KEYS is @dangerous),
// and CLIENT TRACKING/CACHING, whose invalidation messages could name other keys. FUNCTION and the
// SCRIPT commands that act on the whole server are not needed either. On Redis Cluster the client
// learns the slots and the cluster's state with CLUSTER SLOTS and CLUSTER INFO (no key names).
const WORKER_COMMANDS = [
  '-@all',
  '+@read',
  '+@write',
  '+@scripting',
  '+@blocking',
  '+@transaction',
  '+@connection',
  '-@dangerous',
  '-scan',
  '-randomkey',
  '-dbsize',
  '-function',
  '-script|flush',
  '-script|kill',
  '-script|debug',
  '-client|tracking',
  '-client|caching',
  '-client|getredir',
  '+info',
  '+cluster|slots',
  '+cluster|info',
].join(' ');

/** The user replicas log in to their primary as (`masteruser`): the replication stream, nothing else. */
export const REPLICA_REDIS_USER = 'replica';
/**
 * The user Sentinels log in to the data nodes as (`sentinel auth-user`): the commands Redis's
 * Sentinel documentation lists for it, and its hello channel; no key.
 */
export const SENTINEL_REDIS_USER = 'sentinel';

const REPLICA_COMMANDS = '-@all +psync +replconf +ping';
const SENTINEL_COMMANDS = [
  '&*',
  '-@all',
  '+multi',
  '+exec',
  '+slaveof',
  '+replicaof',
  '+ping',
  '+subscribe',
  '+publish',
  '+config|rewrite',
  '+role',
  '+info',
  '+client|setname',
  '+client|kill',
  '+script|kill',
].join(' ');

/** The users a primary with replicas watched by Sentinels needs besides the daemon's and the workers'. */
export function replicationAclUsers(): RedisAclUser[] {
  return [
    { name: REPLICA_REDIS_USER, tenant: undefined, keys: '', commands: REPLICA_COMMANDS },
    { name: SENTINEL_REDIS_USER, tenant: undefined, keys: '', commands: SENTINEL_COMMANDS },
  ];
}

/** Why a set of Redis credentials cannot be generated. */
export type RedisAclErrorCode = 'BAD_PREFIX' | 'BAD_TENANT' | 'BAD_ACL_FILE';

/** A problem with the generator's input; `code` is stable, the message is for people. */
export class RedisAclError extends Error {
  readonly code: RedisAclErrorCode;
  constructor(code: RedisAclErrorCode, message: string) {
    super(message);
    this.name = 'RedisAclError';
    this.code = code;
  }
}

/** One ACL user the generator manages: who it is for, the keys it may reach, its command rules. */
export interface RedisAclUser {
  readonly name: string;
  /** The tenant of a worker user; undefined for the daemon. */
  readonly tenant: string | undefined;
  /** The one key pattern it may reach, without the leading `~`; empty for a user that reaches no key. */
  readonly keys: string;
  readonly commands: string;
}

// The daemon accepts these characters in its prefix; none of them is special in an ACL key
// pattern, so `~<prefix>*` means exactly "keys that start with the prefix".
const PREFIX_PATTERN = /^[A-Za-z0-9:_{}-]+$/;

/** The users for a prefix and a list of tenants: the daemon first, then one worker per tenant. */
export function redisAclUsers(prefix: string, tenants: readonly string[]): RedisAclUser[] {
  if (!PREFIX_PATTERN.test(prefix))
    throw new RedisAclError('BAD_PREFIX', `the key prefix '${prefix}' may hold only A-Z a-z 0-9 : _ { } -`);
  const unique = [...new Set(tenants)];
  for (const tenant of unique) {
    if (!TenantIdSchema.safeParse(tenant).success)
      throw new RedisAclError('BAD_TENANT', `'${tenant}' is not a tenant id (1–63 of a-z, 0-9 and -)`);
  }
  return [
    { name: DAEMON_REDIS_USER, tenant: undefined, keys: `${prefix}*`, commands: DAEMON_COMMANDS },
    ...unique.map((tenant) => ({
      name: workerRedisUser(tenant),
      tenant,
      keys: `${workerQueuePrefix(prefix, tenant)}:*`,
      commands: WORKER_COMMANDS,
    })),
  ];
}

/** A new password: 32 random bytes, base64url (safe in a URL and an env file without quoting). */
export function newRedisPassword(): string {
  return randomBytes(32).toString('base64url');
}

/** The form Redis keeps a password in an ACL file: `#` and the SHA-256 of its bytes, in hex. */
export function passwordHash(password: string): string {
  return `#${createHash('sha256').update(password, 'utf8').digest('hex')}`;
}

/**
 * The ACL file line of a user. `resetkeys`/`resetchannels`/`-@all` first, so the line says all the
 * user may do whatever Redis defaults to; `#hash` entries are the only passwords.
 */
export function aclLine(user: RedisAclUser, hashes: readonly string[]): string {
  const keys = user.keys === '' ? '' : ` ~${user.keys}`;
  return `user ${user.name} on ${hashes.join(' ')} resetkeys resetchannels${keys} ${user.commands}`;
}

/** The line that turns the default user off: without it in the file, Redis keeps it open to anyone. */
export const DEFAULT_USER_LINE = 'user default off resetkeys resetchannels -@all';

/** An existing ACL file: each user's line and its `#sha256` passwords, in file order. */
export function parseAclFile(text: string): Map<string, { line: string; hashes: string[] }> {
  const users = new Map<string, { line: string; hashes: string[] }>();
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (line === '') return;
    const [keyword, name, ...rules] = line.split(/\s+/);
    // Redis refuses anything else in an ACL file; so does this, rather than drop the line.
    if (keyword !== 'user' || name === undefined)
      throw new RedisAclError('BAD_ACL_FILE', `line ${index + 1} does not start with 'user NAME'`);
    if (users.has(name)) throw new RedisAclError('BAD_ACL_FILE', `user '${name}' appears twice (line ${index + 1})`);
    users.set(name, { line, hashes: rules.filter((rule) => /^#[0-9a-f]{64}$/.test(rule)) });
  });
  return users;
}
