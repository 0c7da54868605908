import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { GrantSchema, ModelSpecSchema, SessionRoleSchema, TenantIdSchema } from '@toolsearch/proto';
import { ToolDefinitionSchema } from '@toolsearch/catalog';
import type { RedisClient } from './redis-client';
import { RedisKeys } from './redis-keys';
import { CREATE_SESSION, RECOUNT_SESSION_BYTES, REMOVE_SESSION, UPDATE_SESSION } from './session-scripts';

const RECOUNT_EVERY_MS = 60_000;
/** Tenants whose last recount this replica remembers (forgotten all at once past it). */
const MAX_RECOUNT_MARKS = 10_000;

/** What the daemon keeps about a session; any replica can serve it from this. */
export const SessionDescriptorSchema = z.object({
  id: z.string(),
  tenant: TenantIdSchema,
  role: SessionRoleSchema,
  parent: z.string().optional(),
  grant: GrantSchema,
  model: ModelSpecSchema,
  config: z.unknown().optional(),
  coreTools: z.array(ToolDefinitionSchema).default([]),
  /** Budget-gated mode: once the bridge was active it stays active. */
  activated: z.boolean().default(false),
  /** Tools the session found (described or called), oldest first, for `keep_found` (found-tools.ts). */
  found: z.array(z.string().max(300)).max(50).default([]),
  createdAt: z.number(),
  /** The credential that opened the session's root (children inherit it): who may act on it. */
  owner: z.string().optional(),
  /**
   * The allow lists of the session's ancestors: a tool reaches it only if it also matches one
   * pattern of each, so a child stays within its parent when toolsets change later (grant.ts).
   */
  ancestorAllows: z
    .array(z.array(z.string().max(200)).max(1000))
    .max(64)
    .default([]),
  /** The session's ancestors, root first: their tokens also act on it. */
  lineage: z.array(z.string()).default([]),
  /** The sha256 of the session's bearer token (checked on every request that acts on it). */
  tokenDigest: z.string().optional(),
});
export type SessionDescriptor = z.infer<typeof SessionDescriptorSchema>;

/**
 * Session descriptors in Redis, keyed by tenant and id (a session id from another tenant is simply
 * not found). Also the tenant's set of open sessions, each session's children, and the last hash
 * published for it (so only one replica publishes a tier change).
 */
export class SessionStore {
  readonly #redis: RedisClient;
  readonly #keys: RedisKeys;
  /** Per tenant: when this replica last recounted its stored bytes. */
  readonly #recounted = new Map<string, number>();

  constructor(redis: RedisClient, prefix: string) {
    this.#redis = redis;
    this.#keys = new RedisKeys(prefix);
  }

  #key(tenant: string, id: string): string {
    return this.#keys.tenant(tenant, 'session', id);
  }

  /**
   * Rewrites a stored session and counts its new size; false (nothing written) when the session
   * closed meanwhile.
   */
  async save(descriptor: SessionDescriptor): Promise<boolean> {
    const { tenant, id } = descriptor;
    const json = JSON.stringify(descriptor);
    const written = await UPDATE_SESSION.run(
      this.#redis,
      3,
      this.#key(tenant, id),
      this.#keys.tenant(tenant, 'session-bytes'),
      this.#keys.tenant(tenant, 'session-bytes-total'),
      json,
      id,
      Buffer.byteLength(json),
    );
    return written === 1;
  }

  /**
   * Saves a new session and issues its bearer token (the proof that a caller holds the session,
   * over NATS and on the MCP endpoint), if the tenant's stored sessions stay within `maxBytes`
   * together (`quotas.sessionBytes`; checked and counted in the same script, so sessions opened at
   * once cannot pass it together). Only the token's sha256 is stored, in the descriptor too; the
   * token itself is returned once. The token's owner is written first and on its own (it is the
   * one key without the tenant's hash tag): should the session then not be stored, the token names
   * a session that does not exist, which no request can use, and is deleted.
   */
  async create(
    fresh: Omit<SessionDescriptor, 'tokenDigest'>,
    maxBytes = Number.MAX_SAFE_INTEGER,
  ): Promise<
    { ok: true; token: string; descriptor: SessionDescriptor } | { ok: false; bytes: number; stored: number }
  > {
    const token = `tst_${randomBytes(32).toString('base64url')}`;
    const digest = tokenDigest(token);
    const descriptor: SessionDescriptor = { ...fresh, tokenDigest: digest };
    const json = JSON.stringify(descriptor);
    const bytes = Buffer.byteLength(json);
    await this.#redis.set(this.#keys.token(digest), `${descriptor.tenant}/${descriptor.id}`);
    let [stored, total] = await this.#createScript(descriptor, json, bytes, maxBytes);
    if (stored === 0 && this.#mayRecount(descriptor.tenant)) {
      await this.recountBytes(descriptor.tenant);
      [stored, total] = await this.#createScript(descriptor, json, bytes, maxBytes);
    }
    if (stored === 1) return { ok: true, token, descriptor };
    await this.#redis.del(this.#keys.token(digest));
    return { ok: false, bytes, stored: total };
  }

  /** `CREATE_SESSION` for `descriptor`, whose stored form `json` takes `bytes`. */
  async #createScript(
    descriptor: SessionDescriptor,
    json: string,
    bytes: number,
    maxBytes: number,
  ): Promise<[number, number]> {
    const { tenant, id } = descriptor;
    const keys = [
      this.#key(tenant, id),
      this.#keys.tenant(tenant, 'sessions'),
      this.#keys.tenant(tenant, 'tokenof', id),
      this.#keys.tenant(tenant, 'session-bytes'),
      this.#keys.tenant(tenant, 'session-bytes-total'),
      ...(descriptor.parent !== undefined ? [this.#keys.tenant(tenant, 'children', descriptor.parent)] : []),
    ];
    const reply = (await CREATE_SESSION.run(
      this.#redis,
      keys.length,
      ...keys,
      json,
      id,
      descriptor.tokenDigest ?? '',
      bytes,
      maxBytes,
    )) as [number, number];
    return [Number(reply[0]), Number(reply[1])];
  }

  /**
   * Counts the tenant's stored bytes again from its open sessions' sizes (`RECOUNT_SESSION_BYTES`):
   * a replica of an older version closes sessions without taking their size off the count.
   */
  async recountBytes(tenant: string): Promise<number> {
    this.#recounted.set(tenant, Date.now());
    return Number(
      await RECOUNT_SESSION_BYTES.run(
        this.#redis,
        3,
        this.#keys.tenant(tenant, 'session-bytes'),
        this.#keys.tenant(tenant, 'sessions'),
        this.#keys.tenant(tenant, 'session-bytes-total'),
      ),
    );
  }

  /**
   * A refused open recounts the tenant's bytes at most once a minute per replica: the recount reads
   * every open session's size (up to the tenant's `quotas.sessions`), and a tenant at its quota
   * may keep asking.
   */
  #mayRecount(tenant: string): boolean {
    const last = this.#recounted.get(tenant);
    if (last !== undefined && Date.now() - last < RECOUNT_EVERY_MS) return false;
    if (this.#recounted.size >= MAX_RECOUNT_MARKS) this.#recounted.clear();
    return true;
  }

  /**
   * Bytes of the tenant's open sessions as stored (`quotas.sessionBytes`), each counted at its
   * latest size; sessions opened before this count existed are not in it.
   */
  async bytes(tenant: string): Promise<number> {
    return Number((await this.#redis.get(this.#keys.tenant(tenant, 'session-bytes-total'))) ?? 0);
  }

  /** The session a bearer token belongs to, or undefined (unknown, or its session closed). */
  async resolveToken(token: string): Promise<{ tenant: string; session: string } | undefined> {
    if (!/^tst_[A-Za-z0-9_-]{43}$/.test(token)) return undefined;
    const owner = await this.#redis.get(this.#keys.token(tokenDigest(token)));
    const slash = owner?.indexOf('/') ?? -1;
    if (owner === null || owner === undefined || slash < 0) return undefined;
    return { tenant: owner.slice(0, slash), session: owner.slice(slash + 1) };
  }

  /** Several descriptors in one round trip (missing ones are skipped). */
  async loadMany(tenant: string, ids: readonly string[]): Promise<SessionDescriptor[]> {
    if (ids.length === 0) return [];
    const raws = await this.#redis.mget(ids.map((id) => this.#key(tenant, id)));
    const descriptors: SessionDescriptor[] = [];
    for (const raw of raws) {
      if (raw === null) continue;
      const parsed = SessionDescriptorSchema.safeParse(JSON.parse(raw));
      if (parsed.success) descriptors.push(parsed.data);
    }
    return descriptors;
  }

  /** The ids of a session's open children. */
  children(tenant: string, id: string): Promise<string[]> {
    return this.#redis.smembers(this.#keys.tenant(tenant, 'children', id));
  }

  async load(tenant: string, id: string): Promise<SessionDescriptor | undefined> {
    const raw = await this.#redis.get(this.#key(tenant, id));
    if (raw === null) return undefined;
    const parsed = SessionDescriptorSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : undefined;
  }

  async markActivated(tenant: string, id: string): Promise<void> {
    const descriptor = await this.load(tenant, id);
    if (descriptor !== undefined && !descriptor.activated) await this.save({ ...descriptor, activated: true });
  }

  /**
   * Stores the session's found tools; the stored descriptor is returned, or undefined when the
   * session is gone (it is never recreated).
   */
  async setFound(tenant: string, id: string, found: readonly string[]): Promise<SessionDescriptor | undefined> {
    const descriptor = await this.load(tenant, id);
    if (descriptor === undefined) return undefined;
    const updated = { ...descriptor, found: [...found] };
    return (await this.save(updated)) ? updated : undefined;
  }

  /** How many sessions of the tenant are open. */
  count(tenant: string): Promise<number> {
    return this.#redis.scard(this.#keys.tenant(tenant, 'sessions'));
  }

  /** Every open session id of a tenant. */
  async list(tenant: string): Promise<string[]> {
    return this.#redis.smembers(this.#keys.tenant(tenant, 'sessions'));
  }

  /**
   * The tenant's session ids in batches of about `count` (SSCAN): a tenant with 20,000 sessions
   * is read in short replies instead of one long one parsed in one go. An id may come twice
   * (SSCAN's guarantee is that every member present throughout comes at least once).
   */
  async *scanIds(tenant: string, count = 1000): AsyncGenerator<string[]> {
    let cursor = '0';
    do {
      const [next, ids] = await this.#redis.sscan(this.#keys.tenant(tenant, 'sessions'), cursor, 'COUNT', count);
      cursor = next;
      if (ids.length > 0) yield ids;
    } while (cursor !== '0');
  }

  /** Removes a session and, recursively, its children; returns the ids removed. */
  async remove(tenant: string, id: string): Promise<string[]> {
    const removed: string[] = [];
    const stack = [id];
    while (stack.length > 0) {
      const current = stack.pop() as string;
      const children = await this.#redis.smembers(this.#keys.tenant(tenant, 'children', current));
      stack.push(...children);
      const digest = await this.#redis.get(this.#keys.tenant(tenant, 'tokenof', current));
      const deleted = await REMOVE_SESSION.run(
        this.#redis,
        7,
        this.#key(tenant, current),
        this.#keys.tenant(tenant, 'children', current),
        this.#keys.tenant(tenant, 'hash', current),
        this.#keys.tenant(tenant, 'tokenof', current),
        this.#keys.tenant(tenant, 'sessions'),
        this.#keys.tenant(tenant, 'session-bytes'),
        this.#keys.tenant(tenant, 'session-bytes-total'),
        current,
      );
      // The token's owner after the session: a token left behind by a failure here names nothing.
      if (digest !== null) await this.#redis.del(this.#keys.token(digest));
      if (deleted === 1) removed.push(current);
    }
    return removed;
  }

  /** Records `hash` as the session's published surface; true when it differs from the last one. */
  async swapHash(tenant: string, id: string, hash: string): Promise<boolean> {
    const previous = await this.#redis.set(this.#keys.tenant(tenant, 'hash', id), hash, 'GET');
    return previous !== hash;
  }

  /**
   * Calls `listener` every time the Redis connection becomes ready again (after a reconnect), so
   * work that failed while it was away can be retried; returns the function that stops listening.
   */
  onReady(listener: () => void): () => void {
    this.#redis.on('ready', listener);
    return () => {
      this.#redis.off('ready', listener);
    };
  }
}

/** What a descriptor takes as stored (its JSON, in bytes). */
export function storedBytes(descriptor: SessionDescriptor): number {
  return Buffer.byteLength(JSON.stringify(descriptor));
}

/** The stored form of a bearer token (tokens and API keys are compared by digest only). */
export function tokenDigest(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
