import { randomUUID } from 'node:crypto';
import type { NatsConnection, Subscription } from 'nats';
import type { Logger } from 'pino';
import { z } from 'zod';
import { McpAttachRequestSchema } from '@toolsearch/proto';
import type { McpServerConfig } from './mcp-pool.adapter';
import { execOrThrow, type RedisClient } from './redis-client';
import { RedisKeys } from './redis-keys';
import { RedisScript } from './redis-script';

/** `mcp.lease`: how a tenant's attached MCP server is owned by one replica at a time. */
export const McpLeaseConfigSchema = z
  .object({
    /** A lease not renewed for this long is free: another replica takes the connection over. */
    ttlMs: z.number().int().min(1000).max(600_000).default(10_000),
    /** How often the owner renews its leases, and every replica looks for free ones. */
    renewMs: z.number().int().min(100).max(300_000).default(3000),
  })
  .strict()
  .refine((value) => value.renewMs * 2 <= value.ttlMs, {
    message: 'renewMs must be at most half of ttlMs (a renewal may be late once without losing the lease)',
    path: ['renewMs'],
  })
  .prefault({});
export type McpLeaseConfig = z.output<typeof McpLeaseConfigSchema>;

/** Renews the lease only while it is still this replica's. */
const RENEW = new RedisScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0
`);

/** A free lease of a stored attachment: taken, and the attachment returned; nil otherwise. */
const TAKE = new RedisScript(`
if redis.call('EXISTS', KEYS[2]) == 0 then return false end
if not redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return false end
return redis.call('GET', KEYS[2])
`);

/** Gives a lease up only while it is still this replica's. */
const RELEASE = new RedisScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`);

/** Where a detach tells the owner of a server, whichever replica it is, to let it go. Daemon-only, like the relay. */
const RELEASE_SUBJECT = 'toolsearch.internal.mcplease.release';

/** What the leases act on: the connections of this replica, and the registry every replica follows. */
export interface McpLeaseTargets {
  /** Tenants with toolsets, and each one's toolsets (the registry, as this replica follows it). */
  tenants(): Iterable<string>;
  toolsets(tenant: string): ReadonlyMap<string, { toolset: { kind: string } }>;
  /** Whether this replica holds a connection to the server (its own, or one the operator configured). */
  holds(tenant: string, name: string): boolean;
  /** Connects a stored attachment with every check `mcp.attach` makes (commands, outbound policy). */
  takeOver(tenant: string, config: McpServerConfig): Promise<void>;
  /** Lets this replica's connection go; the toolset stays (another replica holds it, or a detach removed it). */
  drop(tenant: string, name: string): Promise<void>;
  /** Shows the server's toolset as unavailable, with why. */
  markUnavailable(tenant: string, name: string, reason: string): Promise<void>;
}

/**
 * Ownership of tenants' attached MCP servers (`mcp.attach`). One replica holds a server's
 * connection and serves its relay subject for the others; it owns it through a Redis lease
 * (`{<tenant>}:mcp:lease:<name>`, its replica id, expiring after `ttlMs`) that it renews every
 * `renewMs`. The attachment itself (`{<tenant>}:mcp:attach:<name>`) is stored beside it, so when
 * the owner dies and its lease expires, the first replica that finds the lease free (every replica
 * looks every `renewMs`) takes it, shows the toolset unavailable, and reconnects: calls work again
 * at most `ttlMs + renewMs` (13 s by default) plus the server's connect time after the owner died.
 * An owner that stops cleanly gives its leases up, so the takeover comes at the next look.
 */
export class McpLeases {
  readonly #replica = randomUUID();
  readonly #keys: RedisKeys;
  readonly #held = new Map<string, { tenant: string; name: string }>();
  readonly #timer: NodeJS.Timeout;
  readonly #subscription: Subscription;
  #running = false;
  #stopped = false;

  constructor(
    private readonly deps: {
      redis: RedisClient;
      prefix: string;
      nc: NatsConnection;
      config: McpLeaseConfig;
      targets: McpLeaseTargets;
      log: Logger;
    },
  ) {
    this.#keys = new RedisKeys(deps.prefix);
    this.#subscription = deps.nc.subscribe(`${RELEASE_SUBJECT}.*.*`, {
      callback: (error, message) => {
        if (error) return;
        const [tenant, name] = message.subject.slice(RELEASE_SUBJECT.length + 1).split('.');
        if (tenant !== undefined && name !== undefined) void this.#let(tenant, name);
      },
    });
    this.#timer = setInterval(() => void this.#tick(), deps.config.renewMs);
    this.#timer.unref();
  }

  #lease(tenant: string, name: string): string {
    return this.#keys.tenant(tenant, 'mcp', 'lease', name);
  }

  #attachment(tenant: string, name: string): string {
    return this.#keys.tenant(tenant, 'mcp', 'attach', name);
  }

  /** The names of a tenant's stored attachments, so a look reads one set, not a key per MCP toolset. */
  #attached(tenant: string): string {
    return this.#keys.tenant(tenant, 'mcp', 'attached');
  }

  /** This replica just attached the server: its attachment is stored and its lease is this replica's (a newer attach wins). */
  async claim(tenant: string, config: McpServerConfig): Promise<void> {
    this.#held.set(`${tenant}\u0000${config.name}`, { tenant, name: config.name });
    await execOrThrow(
      this.deps.redis
        .multi()
        .set(this.#attachment(tenant, config.name), JSON.stringify(config))
        .sadd(this.#attached(tenant), config.name)
        .set(this.#lease(tenant, config.name), this.#replica, 'PX', this.deps.config.ttlMs),
    );
  }

  /** The server was detached: nobody holds it any more. True when an attachment was stored. */
  async forget(tenant: string, name: string): Promise<boolean> {
    this.#held.delete(`${tenant}\u0000${name}`);
    const [[, removed]] = (await execOrThrow(
      this.deps.redis
        .multi()
        .del(this.#attachment(tenant, name), this.#lease(tenant, name))
        .srem(this.#attached(tenant), name),
    )) as [[null, number]];
    this.deps.nc.publish(`${RELEASE_SUBJECT}.${tenant}.${name}`);
    return removed > 0;
  }

  /** Another replica detached a server this one may hold. */
  async #let(tenant: string, name: string): Promise<void> {
    if (!this.#held.delete(`${tenant}\u0000${name}`)) return;
    await this.deps.targets.drop(tenant, name).catch(() => undefined);
  }

  async #tick(): Promise<void> {
    if (this.#running || this.#stopped) return;
    this.#running = true;
    try {
      await this.#renew();
      await this.#lookForFree();
    } catch (error) {
      this.deps.log.warn({ err: (error as Error).message }, 'MCP lease round failed; retrying at the next');
    } finally {
      this.#running = false;
    }
  }

  /** Renews every lease held; one found to be another's (a newer attach elsewhere) is let go. */
  async #renew(): Promise<void> {
    for (const [key, { tenant, name }] of [...this.#held]) {
      const renewed = Number(
        await RENEW.run(this.deps.redis, 1, this.#lease(tenant, name), this.#replica, this.deps.config.ttlMs),
      );
      if (renewed === 1 || !this.#held.has(key)) continue;
      this.#held.delete(key);
      this.deps.log.info({ tenant, server: name }, 'MCP lease lost to another replica; closing this connection');
      await this.deps.targets.drop(tenant, name).catch(() => undefined);
    }
  }

  /**
   * Takes over every stored attachment whose lease is free (its owner died or stopped). Only
   * servers in the tenant's set of attachments are tried: MCP toolsets a gateway put are not
   * attachments, and a tenant may have thousands of them.
   */
  async #lookForFree(): Promise<void> {
    const { targets } = this.deps;
    for (const tenant of [...targets.tenants()]) {
      const candidates = this.#candidates(tenant);
      if (candidates.size === 0 || this.#stopped) continue;
      for (const name of await this.deps.redis.smembers(this.#attached(tenant))) {
        if (this.#stopped) return;
        if (!candidates.has(name) || this.#held.has(`${tenant}\u0000${name}`)) continue;
        const stored = await TAKE.run(
          this.deps.redis,
          2,
          this.#lease(tenant, name),
          this.#attachment(tenant, name),
          this.#replica,
          this.deps.config.ttlMs,
        );
        if (typeof stored === 'string') await this.#takeOver(tenant, name, stored);
      }
    }
  }

  /** Servers of the tenant's MCP toolsets that this replica holds no connection to. */
  #candidates(tenant: string): Set<string> {
    const names = new Set<string>();
    for (const [id, { toolset }] of this.deps.targets.toolsets(tenant)) {
      if (toolset.kind !== 'mcp' || !id.startsWith('mcp-')) continue;
      const name = id.slice(4);
      if (!this.#held.has(`${tenant}\u0000${name}`) && !this.deps.targets.holds(tenant, name)) names.add(name);
    }
    return names;
  }

  async #takeOver(tenant: string, name: string, stored: string): Promise<void> {
    const key = `${tenant}\u0000${name}`;
    this.#held.set(key, { tenant, name });
    const { targets, log } = this.deps;
    try {
      const config = McpAttachRequestSchema.parse(JSON.parse(stored));
      await targets.markUnavailable(tenant, name, 'the replica that held its connection is gone; reconnecting');
      await targets.takeOver(tenant, config);
      log.info({ tenant, server: name }, 'took over an MCP server whose owner is gone');
    } catch (error) {
      // Given back: the next look (here or on another replica) tries again.
      this.#held.delete(key);
      await RELEASE.run(this.deps.redis, 1, this.#lease(tenant, name), this.#replica).catch(() => undefined);
      await targets.markUnavailable(tenant, name, 'no replica could reconnect to it; retrying').catch(() => undefined);
      log.warn({ tenant, server: name, err: (error as Error).message }, 'could not take over an MCP server');
    }
  }

  /** Stops renewing and gives every lease up, so another replica takes the connections over at its next look. */
  async stop(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    clearInterval(this.#timer);
    this.#subscription.unsubscribe();
    for (const { tenant, name } of this.#held.values())
      await RELEASE.run(this.deps.redis, 1, this.#lease(tenant, name), this.#replica).catch(() => undefined);
    this.#held.clear();
  }
}
