import { tenantKeyPrefix } from '@toolsearch/proto';

/**
 * Every Redis key the daemon writes, in one place. A tenant's keys share the hash tag `{<tenant>}`
 * (`<prefix>{<tenant>}:<kind>:…`, see `tenantKeyPrefix`): the transactions, MGETs and scripts of
 * the session store, approvals, quotas and rate limits only ever combine keys of one tenant, so on
 * Redis Cluster each runs on one node, and tenants spread over the masters. Three keys have no
 * tenant: a session token's owner and a console session (both looked up before the tenant is
 * known) and the approvals queue,
 * which every replica's worker serves for all tenants. None is ever combined with another key.
 */
export class RedisKeys {
  constructor(readonly prefix: string) {}

  /** A key of `tenant`: `<prefix>{<tenant>}:<parts joined by ':'>`. */
  tenant(tenant: string, ...parts: string[]): string {
    return `${tenantKeyPrefix(this.prefix, tenant)}${parts.join(':')}`;
  }

  /** Which session a bearer token (by its sha256) belongs to. */
  token(digest: string): string {
    return `${this.prefix}token:${digest}`;
  }

  /**
   * A signed-in console session, by the sha256 of its cookie (looked up before the tenant is
   * known, like a token; see console/console-sessions.ts).
   */
  consoleSession(digest: string): string {
    return `${this.prefix}console:${digest}`;
  }

  /**
   * BullMQ's prefix for the approvals queue: its own hash tag (BullMQ needs every key of a queue
   * in one slot), `_approvals`, which no tenant id can be (they have no `_`).
   */
  get approvalsQueuePrefix(): string {
    return `${this.prefix}{_approvals}`;
  }
}
