import type { ChainableCommander } from 'ioredis';
import { ToolsetSchema, type Toolset } from '@toolsearch/catalog';
import type { RedisClient } from '../redis-client';
import { RedisKeys } from '../redis-keys';
import type { Pin, ReviewItem, VettingState } from './vet-toolset';

/** Bounds on what one toolset's vetting keeps, whatever a source sends. */
const MAX_REVIEW_ITEMS = 10_000;

function encodeId(id: string): string {
  return Buffer.from(id, 'utf8').toString('base64url');
}

function parseJson<T>(text: string | null | undefined): T | undefined {
  if (text === null || text === undefined) return undefined;
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}

/**
 * Pins, releases and items waiting for review, in Redis under the daemon's prefix and the tenant's
 * hash tag (`<prefix>{<tenant>}:vetting:<kind>:<base64url toolset id>`, RedisKeys), like every
 * per-tenant key: a transaction over them stays in one Redis Cluster slot, and the tenant's worker
 * users (`worker-<tenant>`, limited to their queues) cannot read or change them.
 *
 * - `pins:<id>` hash, tool → the pinned definition and its digest;
 * - `releases:<id>` hash, tool → the digest of a quarantined definition an operator released;
 * - `review:<id>` hash, tool → what waits (a change, or a quarantined definition), replaced on
 *   every vetting of the toolset;
 * - `raw:<id>` the toolset as its source last sent it, so an accepted change can be applied
 *   without asking the source again;
 * - `held` set, the toolsets with something to review.
 */
export class VettingStore {
  readonly #keys: RedisKeys;

  constructor(
    private readonly redis: RedisClient,
    prefix: string,
  ) {
    this.#keys = new RedisKeys(prefix);
  }

  #key(tenant: string, kind: 'pins' | 'digests' | 'releases' | 'review' | 'raw', id: string): string {
    return this.#keys.tenant(tenant, 'vetting', kind, encodeId(id));
  }

  #held(tenant: string): string {
    return this.#keys.tenant(tenant, 'vetting', 'held');
  }

  /**
   * The pinned digests and releases of a toolset, and the pinned definitions of the tools whose
   * digest differs from `digests` (tool → digest now): a put of an unchanged 6,000-tool toolset
   * reads 6,000 digests, not 6,000 definitions.
   */
  async load(tenant: string, id: string, digests: ReadonlyMap<string, string>): Promise<VettingState> {
    const [pinDigests, releases] = await Promise.all([
      this.redis.hgetall(this.#key(tenant, 'digests', id)),
      this.redis.hgetall(this.#key(tenant, 'releases', id)),
    ]);
    const changed = Object.keys(pinDigests).filter(
      (tool) => digests.has(tool) && digests.get(tool) !== pinDigests[tool],
    );
    const pins = new Map<string, Pin>();
    if (changed.length > 0) {
      const texts = await this.redis.hmget(this.#key(tenant, 'pins', id), ...changed);
      changed.forEach((tool, index) => {
        const pin = parseJson<Pin>(texts[index]);
        if (pin !== undefined) pins.set(tool, pin);
      });
    }
    return { pinDigests: new Map(Object.entries(pinDigests)), pins, releases: new Map(Object.entries(releases)) };
  }

  /** Records one vetting: new pins, the review items (replacing the old ones) and the raw toolset. */
  async save(
    tenant: string,
    raw: Toolset,
    newPins: readonly { tool: string; pin: Pin }[],
    review: readonly ReviewItem[],
  ): Promise<void> {
    const multi = this.redis.multi();
    this.#pin(multi, tenant, raw.id, newPins);
    const reviewKey = this.#key(tenant, 'review', raw.id);
    multi.del(reviewKey);
    const kept = review.slice(0, MAX_REVIEW_ITEMS);
    if (kept.length > 0) {
      multi.hset(reviewKey, ...kept.flatMap((item) => [item.tool, JSON.stringify(item)]));
      multi.set(this.#key(tenant, 'raw', raw.id), JSON.stringify(raw));
      multi.sadd(this.#held(tenant), raw.id);
    } else {
      multi.del(this.#key(tenant, 'raw', raw.id));
      multi.srem(this.#held(tenant), raw.id);
    }
    await multi.exec();
  }

  #pin(multi: ChainableCommander, tenant: string, id: string, pins: readonly { tool: string; pin: Pin }[]): void {
    for (let start = 0; start < pins.length; start += 1000) {
      const batch = pins.slice(start, start + 1000);
      multi.hset(this.#key(tenant, 'pins', id), ...batch.flatMap(({ tool, pin }) => [tool, JSON.stringify(pin)]));
      multi.hset(this.#key(tenant, 'digests', id), ...batch.flatMap(({ tool, pin }) => [tool, pin.digest]));
    }
  }

  /** What waits for review: per toolset, its items. `toolset` narrows to one. */
  async review(tenant: string, toolset?: string): Promise<{ toolset: string; items: ReviewItem[] }[]> {
    const ids = toolset !== undefined ? [toolset] : (await this.redis.smembers(this.#held(tenant))).sort();
    const out: { toolset: string; items: ReviewItem[] }[] = [];
    for (const id of ids.slice(0, 1000)) {
      const entries = await this.redis.hgetall(this.#key(tenant, 'review', id));
      const items = Object.values(entries)
        .map((text) => parseJson<ReviewItem>(text))
        .filter((item): item is ReviewItem => item !== undefined)
        .sort((a, b) => a.tool.localeCompare(b.tool));
      if (items.length > 0) out.push({ toolset: id, items });
    }
    return out;
  }

  /** The toolset as its source last sent it (kept while something of it waits for review). */
  async raw(tenant: string, id: string): Promise<Toolset | undefined> {
    const parsed = ToolsetSchema.safeParse(parseJson(await this.redis.get(this.#key(tenant, 'raw', id))));
    return parsed.success ? parsed.data : undefined;
  }

  /** An operator's acceptance: the new pins, and the quarantined digests released. */
  async accept(
    tenant: string,
    id: string,
    pins: readonly { tool: string; pin: Pin }[],
    releases: readonly { tool: string; digest: string }[],
  ): Promise<void> {
    const multi = this.redis.multi();
    this.#pin(multi, tenant, id, pins);
    if (releases.length > 0)
      multi.hset(this.#key(tenant, 'releases', id), ...releases.flatMap(({ tool, digest }) => [tool, digest]));
    await multi.exec();
  }
}
