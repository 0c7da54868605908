import { randomUUID } from 'node:crypto';
import type { RedisClient } from '../redis-client';
import { RedisKeys } from '../redis-keys';
import { RedisScript } from '../redis-script';

/** One MCP endpoint session as every replica sees it (the hash `{<tenant>}:mcp:session:<uuid>`). */
export interface McpSessionRecord {
  /** The `Mcp-Session-Id` the client sends: `<tenant>.<uuid>`. */
  readonly id: string;
  readonly tenant: string;
  /** The toolsearch session it acts as. */
  readonly session: string;
  /** That session was opened for this MCP session (API key) and is closed with it. */
  readonly owned: boolean;
  /** sha256 of the bearer that opened it; every later request must present the same one. */
  readonly credential: string;
  readonly created: number;
  /** When it last received a request or closed a response (ms). */
  readonly lastSeen: number;
  /** Responses open for it on any replica (GET event stream, requests in flight). */
  readonly streams: number;
}

/** Why `reserve` refused a new session. */
export type ReserveRefusal = 'credential' | 'tenant';

/** The caps and clocks the store applies (the `http.*` keys of the same names). */
export interface McpSessionStoreLimits {
  readonly mcpIdleMs: number;
  readonly maxMcpSessionsPerTenant: number;
  readonly maxMcpSessionsPerCredential: number;
}

/** A session id: a tenant id (config's pattern), a dot, a UUID. Anything else is unknown. */
const ID_PATTERN = /^([a-z0-9][a-z0-9-]{0,62})\.([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

/**
 * The hash outlives `mcpIdleMs` by this much so that the sweep that ends an idle session still
 * finds what to close (the session an API key opened) before Redis drops the record.
 */
const GRACE_MS = 120_000;

/** Live entries of the tenant's and the credential's indexes (scored by last activity) under their caps; then the new one in both. */
const RESERVE = new RedisScript(`
local since = tonumber(ARGV[1]) - tonumber(ARGV[2])
if redis.call('ZCOUNT', KEYS[2], since, '+inf') >= tonumber(ARGV[3]) then return 1 end
if redis.call('ZCOUNT', KEYS[1], since, '+inf') >= tonumber(ARGV[4]) then return 2 end
redis.call('HSET', KEYS[3], 'session', ARGV[6], 'owned', ARGV[7], 'credential', ARGV[8], 'created', ARGV[1], 'lastSeen', ARGV[1], 'streams', 0)
redis.call('PEXPIRE', KEYS[3], ARGV[9])
for i = 1, 2 do
  redis.call('ZADD', KEYS[i], ARGV[1], ARGV[5])
  redis.call('PEXPIRE', KEYS[i], ARGV[9])
end
return 0
`);

/** Activity on a session that still exists: last seen now, open responses moved by ARGV[2]. 0 when it is gone. */
const TOUCH = new RedisScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'lastSeen', ARGV[1])
local streams = redis.call('HINCRBY', KEYS[1], 'streams', ARGV[2])
if streams < 0 then redis.call('HSET', KEYS[1], 'streams', 0) end
redis.call('PEXPIRE', KEYS[1], ARGV[4])
for i = 2, 3 do
  redis.call('ZADD', KEYS[i], 'XX', ARGV[1], ARGV[3])
  redis.call('PEXPIRE', KEYS[i], ARGV[4])
end
return 1
`);

/** Ends a session: 1 for the one caller that removed it (and so closes what it opened), 0 for every other. */
const END = new RedisScript(`
local removed = redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
return removed
`);

/**
 * Where MCP endpoint sessions live: Redis, under their tenant's hash tag, so any replica serves any
 * request of any session (no sticky routing). Per session a hash; per tenant and per credential a
 * sorted set of its sessions by last activity, which the caps count and the sweep walks. Every key
 * expires `mcpIdleMs` (+ a grace) after the session's last activity.
 */
export class McpSessionStore {
  readonly #redis: RedisClient;
  readonly #keys: RedisKeys;
  readonly #limits: McpSessionStoreLimits;

  constructor(redis: RedisClient, prefix: string, limits: McpSessionStoreLimits) {
    this.#redis = redis;
    this.#keys = new RedisKeys(prefix);
    this.#limits = limits;
  }

  get #ttl(): number {
    return this.#limits.mcpIdleMs + GRACE_MS;
  }

  #record(tenant: string, uuid: string): string {
    return this.#keys.tenant(tenant, 'mcp', 'session', uuid);
  }

  #tenantIndex(tenant: string): string {
    return this.#keys.tenant(tenant, 'mcp', 'open');
  }

  #credentialIndex(tenant: string, credential: string): string {
    return this.#keys.tenant(tenant, 'mcp', 'credential', credential);
  }

  /**
   * Opens a session under the tenant's and the credential's caps (counted over every replica), in
   * one script so concurrent initializes cannot overshoot. The id, or which cap refused it.
   */
  async reserve(
    identity: { tenant: string; session: string; owned: boolean },
    credential: string,
  ): Promise<{ id: string } | { refused: ReserveRefusal }> {
    const { tenant } = identity;
    const uuid = randomUUID();
    const now = Date.now();
    const limits = this.#limits;
    const answer = Number(
      await RESERVE.run(
        this.#redis,
        3,
        this.#tenantIndex(tenant),
        this.#credentialIndex(tenant, credential),
        this.#record(tenant, uuid),
        now,
        limits.mcpIdleMs,
        limits.maxMcpSessionsPerCredential,
        limits.maxMcpSessionsPerTenant,
        uuid,
        identity.session,
        identity.owned ? '1' : '0',
        credential,
        this.#ttl,
      ),
    );
    if (answer === 1) return { refused: 'credential' };
    if (answer === 2) return { refused: 'tenant' };
    return { id: `${tenant}.${uuid}` };
  }

  /** Whether the caps leave room for one more session of `tenant` opened with `credential` (checked before anything is opened). */
  async room(tenant: string, credential: string): Promise<ReserveRefusal | undefined> {
    const since = Date.now() - this.#limits.mcpIdleMs;
    const [byCredential, byTenant] = await Promise.all([
      this.#redis.zcount(this.#credentialIndex(tenant, credential), since, '+inf'),
      this.#redis.zcount(this.#tenantIndex(tenant), since, '+inf'),
    ]);
    if (byCredential >= this.#limits.maxMcpSessionsPerCredential) return 'credential';
    if (byTenant >= this.#limits.maxMcpSessionsPerTenant) return 'tenant';
    return undefined;
  }

  /** The session an id names, undefined when the id is malformed, unknown, expired or idle. */
  async get(id: string): Promise<McpSessionRecord | undefined> {
    const parsed = parseId(id);
    if (parsed === undefined) return undefined;
    const fields = await this.#redis.hgetall(this.#record(parsed.tenant, parsed.uuid));
    const record = toRecord(id, parsed.tenant, fields);
    return record === undefined || Date.now() - record.lastSeen > this.#limits.mcpIdleMs ? undefined : record;
  }

  /** Records activity (and `streams` responses opened, or closed when negative); false when the session is gone. */
  async touch(record: McpSessionRecord, streams: number): Promise<boolean> {
    const { uuid } = parseId(record.id) ?? { uuid: '' };
    const answer = await TOUCH.run(
      this.#redis,
      3,
      this.#record(record.tenant, uuid),
      this.#tenantIndex(record.tenant),
      this.#credentialIndex(record.tenant, record.credential),
      Date.now(),
      streams,
      uuid,
      this.#ttl,
    );
    return Number(answer) === 1;
  }

  /** Ends a session; true for the one caller that removed it (whoever closes what it opened). */
  async end(record: Pick<McpSessionRecord, 'id' | 'tenant' | 'credential'>): Promise<boolean> {
    const parsed = parseId(record.id);
    if (parsed === undefined) return false;
    const answer = await END.run(
      this.#redis,
      3,
      this.#record(record.tenant, parsed.uuid),
      this.#tenantIndex(record.tenant),
      this.#credentialIndex(record.tenant, record.credential),
      parsed.uuid,
    );
    return Number(answer) === 1;
  }

  /** Whether a session still exists (a replica's event stream ends when its session does). */
  async exists(id: string): Promise<boolean> {
    const parsed = parseId(id);
    if (parsed === undefined) return false;
    return (await this.#redis.exists(this.#record(parsed.tenant, parsed.uuid))) === 1;
  }

  /**
   * Sessions of a tenant quiet for longer than `quietMs`, at most `max` of them, oldest first. An
   * index entry whose record is gone is removed on the way.
   */
  async quiet(tenant: string, quietMs: number, max: number): Promise<McpSessionRecord[]> {
    const index = this.#tenantIndex(tenant);
    const uuids = await this.#redis.zrangebyscore(index, '-inf', Date.now() - quietMs, 'LIMIT', 0, max);
    const found: McpSessionRecord[] = [];
    for (const uuid of uuids) {
      const id = `${tenant}.${uuid}`;
      const record = toRecord(id, tenant, await this.#redis.hgetall(this.#record(tenant, uuid)));
      if (record === undefined) await this.#redis.zrem(index, uuid);
      else found.push(record);
    }
    return found;
  }
}

/** The tenant and UUID of a well-formed session id. */
export function parseId(id: string): { tenant: string; uuid: string } | undefined {
  if (id.length > 100) return undefined;
  const match = ID_PATTERN.exec(id);
  if (match?.[1] === undefined || match[2] === undefined) return undefined;
  return { tenant: match[1], uuid: match[2] };
}

function toRecord(id: string, tenant: string, fields: Record<string, string>): McpSessionRecord | undefined {
  const { session, credential } = fields;
  if (session === undefined || credential === undefined) return undefined;
  return {
    id,
    tenant,
    session,
    owned: fields['owned'] === '1',
    credential,
    created: Number(fields['created']),
    lastSeen: Number(fields['lastSeen']),
    streams: Number(fields['streams'] ?? 0),
  };
}
