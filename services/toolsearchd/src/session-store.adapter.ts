import type { Redis } from 'ioredis';
import { z } from 'zod';
import { GrantSchema, ModelSpecSchema, SessionRoleSchema, TenantIdSchema } from '@toolsearch/proto';
import { ToolDefinitionSchema } from '@toolsearch/catalog';

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
  createdAt: z.number(),
});
export type SessionDescriptor = z.infer<typeof SessionDescriptorSchema>;

/**
 * Session descriptors in Redis, keyed by tenant and id (a session id from another tenant is simply
 * not found). Also the tenant's set of open sessions, each session's children, and the last hash
 * published for it (so only one replica publishes a tier change).
 */
export class SessionStore {
  readonly #redis: Redis;
  readonly #prefix: string;

  constructor(redis: Redis, prefix: string) {
    this.#redis = redis;
    this.#prefix = prefix;
  }

  #key(tenant: string, id: string): string {
    return `${this.#prefix}session:${tenant}:${id}`;
  }

  async save(descriptor: SessionDescriptor): Promise<void> {
    const multi = this.#redis.multi();
    multi.set(this.#key(descriptor.tenant, descriptor.id), JSON.stringify(descriptor));
    multi.sadd(`${this.#prefix}sessions:${descriptor.tenant}`, descriptor.id);
    if (descriptor.parent !== undefined)
      multi.sadd(`${this.#prefix}children:${descriptor.tenant}:${descriptor.parent}`, descriptor.id);
    await multi.exec();
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

  /** Every open session id of a tenant. */
  async list(tenant: string): Promise<string[]> {
    return this.#redis.smembers(`${this.#prefix}sessions:${tenant}`);
  }

  /** Removes a session and, recursively, its children; returns the ids removed. */
  async remove(tenant: string, id: string): Promise<string[]> {
    const removed: string[] = [];
    const stack = [id];
    while (stack.length > 0) {
      const current = stack.pop() as string;
      const children = await this.#redis.smembers(`${this.#prefix}children:${tenant}:${current}`);
      stack.push(...children);
      const multi = this.#redis.multi();
      multi.del(
        this.#key(tenant, current),
        `${this.#prefix}children:${tenant}:${current}`,
        `${this.#prefix}hash:${tenant}:${current}`,
      );
      multi.srem(`${this.#prefix}sessions:${tenant}`, current);
      const [[, deleted] = [null, 0]] = (await multi.exec()) ?? [];
      if (deleted) removed.push(current);
    }
    return removed;
  }

  /** Records `hash` as the session's published surface; true when it differs from the last one. */
  async swapHash(tenant: string, id: string, hash: string): Promise<boolean> {
    const previous = await this.#redis.set(`${this.#prefix}hash:${tenant}:${id}`, hash, 'GET');
    return previous !== hash;
  }
}
