import { createHash } from 'node:crypto';
import { JSONCodec, type KV, type KvEntry, type NatsConnection, type QueuedIterator } from 'nats';
import { ToolsetSchema, type Toolset } from '@toolsearch/catalog';
import { MAX_JSON_DEPTH } from '@toolsearch/bridge';
import { WIRE_ERROR_CODES } from '@toolsearch/proto';
import { assertToolSizes, assertValueDepth, jsonDepthWithin, LimitExceededError } from './json-limits';

const codec = JSONCodec<unknown>();

/**
 * Bytes of a NATS message kept free for what travels with a stored toolset besides its JSON: the
 * subject (`$KV.<bucket>.<tenant>.<id>`, up to ~300 bytes), headers, and the redelivery to every
 * replica's watch. A KV put over the server's `max_payload` fails inside JetStream.
 */
const MAX_PAYLOAD_HEADROOM = 8 * 1024;
/** NATS's own default `max_payload`, if the server has not said (never connected yet). */
const DEFAULT_MAX_PAYLOAD = 1024 * 1024;

/** The registry's bounds on one toolset (from `limits` in the config). */
export interface RegistryLimits {
  /** `limits.maxToolsPerToolset`. */
  readonly maxToolsPerToolset: number;
  /** `limits.maxJsonDepth`: schemas of tools from any source (MCP servers too) stay walkable. */
  readonly maxJsonDepth: number;
  /** `limits.maxToolBytes`: one tool definition as JSON. */
  readonly maxToolBytes: number;
}

/**
 * The vetting every stored toolset passes (see `DefinitionGate`): given the tenant's current
 * toolsets, what sessions may see of this one.
 */
export type VetToolset = (
  tenant: string,
  toolset: Toolset,
  current: ReadonlyMap<string, { toolset: Toolset; revision: number }>,
) => Promise<Toolset>;

/** A registry change as the watch sees it. */
export interface RegistryChange {
  readonly tenant: string;
  readonly toolsetId: string;
  readonly revision: number;
  readonly deleted: boolean;
}

function encodeId(id: string): string {
  return Buffer.from(id, 'utf8').toString('base64url');
}

function decodeKey(key: string): { tenant: string; toolsetId: string } | undefined {
  const dot = key.indexOf('.');
  if (dot <= 0) return undefined;
  return { tenant: key.slice(0, dot), toolsetId: Buffer.from(key.slice(dot + 1), 'base64url').toString('utf8') };
}

/**
 * The toolset registry: one JetStream KV entry per tenant and toolset (`<tenant>.<base64url id>`),
 * whose value is the toolset. Every replica watches the whole bucket and keeps the current values
 * in memory; toolset objects are immutable values (a change is a new object), which keeps the
 * assembly and search caches content-addressed.
 */
export class ToolsetRegistry {
  readonly #kv: KV;
  readonly #nc: NatsConnection;
  readonly #limits: RegistryLimits;
  readonly #tenants = new Map<string, Map<string, { toolset: Toolset; revision: number }>>();
  /**
   * Toolsets by the hash of their stored bytes: tenants that attach the same server share one
   * parsed, frozen object (and with it every cache built on it) instead of holding a copy each.
   */
  readonly #interned = new Map<string, WeakRef<Toolset>>();
  /** Per tenant: bumped on every change, so derived values know when they are stale. */
  readonly #generations = new Map<string, number>();
  #watch: QueuedIterator<KvEntry> | undefined;
  #lastRevision = 0;
  /**
   * The last revision the watch itself delivered. A resume starts after it, not after
   * `#lastRevision`: this replica's own puts are applied at once, but their change (and the tier
   * events it fans out) is reported only when the watch delivers them — resuming past a put made
   * while the watch was silently stuck on a lost stream leader dropped its tier events for good.
   */
  #watchedRevision = 0;
  /** Told when the watch ends without `stop()` (its consumer could not be recreated). */
  #onWatchLost: () => void = () => undefined;
  /**
   * Replicas of the bucket's stream as it is, which may differ from the ones asked for: an existing
   * bucket keeps its own (changing them is an operator's `nats stream edit`, not a side effect).
   */
  readonly replicas: number;

  readonly #vet: VetToolset | undefined;

  private constructor(kv: KV, nc: NatsConnection, limits: RegistryLimits, replicas: number, vet?: VetToolset) {
    this.#vet = vet;
    this.#kv = kv;
    this.#nc = nc;
    this.#limits = limits;
    this.replicas = replicas;
  }

  /**
   * Opens the bucket, creating it with `replicas` (1, 3 or 5) if it does not exist. With `vet`,
   * every put stores what the vetting returns, never the toolset as given.
   */
  static async open(
    nc: NatsConnection,
    bucket: string,
    limits: RegistryLimits = { maxToolsPerToolset: 100_000, maxJsonDepth: MAX_JSON_DEPTH, maxToolBytes: 1024 * 1024 },
    replicas = 1,
    vet?: VetToolset,
  ): Promise<ToolsetRegistry> {
    const kv = await nc.jetstream().views.kv(bucket, { history: 1, replicas });
    const status = await kv.status();
    return new ToolsetRegistry(kv, nc, limits, status.replicas, vet);
  }

  /**
   * The largest stored toolset, in bytes of JSON: the server's `max_payload` (read on every put,
   * a reconnect may land on another server) less the headroom.
   */
  get maxToolsetBytes(): number {
    return (this.#nc.info?.max_payload ?? DEFAULT_MAX_PAYLOAD) - MAX_PAYLOAD_HEADROOM;
  }

  /**
   * The toolset's stored form, after the bounds every source meets (a tenant's put, an MCP
   * server's tool list, a config catalog): tool count, nesting depth (measured without recursion,
   * before anything serialises it), each tool's size, then the encoded size against what a KV entry
   * can hold.
   */
  #encodeWithinLimits(toolset: Toolset, shapeChecked = false): Uint8Array {
    // A vetted toolset holds the checked tools (some cut shorter) or earlier checked pins.
    if (!shapeChecked) this.#assertShape(toolset);
    const bytes = codec.encode(toolset);
    const limit = this.maxToolsetBytes;
    if (bytes.length > limit)
      throw new LimitExceededError(
        WIRE_ERROR_CODES.PAYLOAD_TOO_LARGE,
        'max_payload',
        `toolset '${toolset.id}' is ${bytes.length} bytes once stored (defaults filled in); the registry holds at most ${limit} per toolset (the NATS server's max_payload less ${MAX_PAYLOAD_HEADROOM} bytes of headroom). Split it into several toolsets, or raise max_payload on the NATS server.`,
      );
    return bytes;
  }

  /** Tool count, nesting depth and each tool's size: checked before the vetting reads anything. */
  #assertShape(toolset: Toolset): void {
    const { maxToolsPerToolset, maxJsonDepth, maxToolBytes } = this.#limits;
    if (toolset.tools.length > maxToolsPerToolset)
      throw new LimitExceededError(
        WIRE_ERROR_CODES.PAYLOAD_TOO_LARGE,
        'limits.maxToolsPerToolset',
        `toolset '${toolset.id}' has ${toolset.tools.length} tools; a toolset holds at most ${maxToolsPerToolset} (limits.maxToolsPerToolset). Split it into several toolsets.`,
      );
    assertValueDepth(toolset, maxJsonDepth, `toolset '${toolset.id}'`);
    assertToolSizes(toolset.tools, maxToolBytes, `toolset '${toolset.id}'`);
  }

  /**
   * Loads the current values and follows changes. Resolves once the initial values are in memory.
   * `onChange` runs for every change after that (and not for the initial load).
   */
  async start(onChange: (change: RegistryChange) => void, onWatchLost: () => void = () => undefined): Promise<void> {
    this.#onChange = onChange;
    this.#onWatchLost = onWatchLost;
    // Everything up to the stream's last sequence now is the initial state; later entries are changes.
    const initialRevision = (await this.#kv.status()).streamInfo.state.last_seq;
    let resolveReady: () => void = () => undefined;
    const ready = new Promise<void>((resolve) => (resolveReady = resolve));
    if (initialRevision === 0) resolveReady();
    await this.#follow(undefined, (revision) => {
      if (revision >= initialRevision) resolveReady();
      return revision > initialRevision;
    });
    // A purged last entry is never delivered: do not wait for it forever.
    await Promise.race([ready, new Promise((resolve) => setTimeout(resolve, 5000).unref())]);
  }

  #onChange: (change: RegistryChange) => void = () => undefined;

  /**
   * Watches the bucket (from `fromRevision`, or the current values). `isChange` decides which
   * entries are reported as changes rather than initial state.
   */
  async #follow(fromRevision: number | undefined, isChange: (revision: number) => boolean): Promise<void> {
    const watch = await this.#kv.watch({
      key: '>',
      ...(fromRevision !== undefined ? { resumeFromRevision: fromRevision } : {}),
    });
    this.#watch?.stop();
    this.#watch = watch;
    void (async () => {
      for await (const entry of watch) {
        this.#watchedRevision = Math.max(this.#watchedRevision, entry.revision);
        const change = this.#apply(entry);
        if (change && isChange(entry.revision)) this.#onChange(change);
      }
    })()
      .catch(() => undefined)
      // Only the current watch counts: one replaced by a resume, or stopped, is not lost.
      .then(() => {
        if (this.#watch === watch && !this.#stopped) this.#onWatchLost();
      });
  }

  #stopped = false;

  /**
   * After the connection comes back, or the watch was lost, follows again from the first revision
   * the watch has not delivered, so a change made meanwhile — by another replica or by this one —
   * is still reported (an echo of this replica's own put is reported without being applied twice).
   */
  async resume(): Promise<void> {
    await this.#follow(this.#watchedRevision + 1, () => true);
  }

  /**
   * Applies one entry of the bucket and returns it as a change. An entry this replica already
   * holds — the echo of its own write, applied when it was made — or one older than what it holds
   * leaves the state and the tenant's generation alone: bumping the generation again made every
   * session of the tenant rebuild its surface once more for each of its own puts (a 6,000-tool
   * surface takes 40–100 ms). The change is still reported, so the fan-out runs once per write.
   */
  #apply(entry: KvEntry): RegistryChange | undefined {
    const key = decodeKey(entry.key);
    if (key === undefined) return undefined;
    this.#lastRevision = Math.max(this.#lastRevision, entry.revision);
    const change: RegistryChange = { ...key, revision: entry.revision, deleted: entry.operation !== 'PUT' };
    let toolsets = this.#tenants.get(key.tenant);
    const held = toolsets?.get(key.toolsetId);
    if (entry.operation !== 'PUT') {
      // Nothing to remove: already gone here, or put again since.
      if (held === undefined || held.revision > entry.revision) return change;
      toolsets?.delete(key.toolsetId);
      this.#bump(key.tenant);
      return change;
    }
    if (held !== undefined && held.revision >= entry.revision) return change;
    const toolset = this.#intern(entry.value);
    if (toolset === undefined) return undefined;
    if (toolsets === undefined) {
      toolsets = new Map();
      this.#tenants.set(key.tenant, toolsets);
    }
    toolsets.set(key.toolsetId, { toolset, revision: entry.revision });
    this.#bump(key.tenant);
    return change;
  }

  #bump(tenant: string): void {
    this.#generations.set(tenant, (this.#generations.get(tenant) ?? 0) + 1);
  }

  #intern(bytes: Uint8Array): Toolset | undefined {
    const digest = createHash('sha256').update(bytes).digest('base64');
    const shared = this.#interned.get(digest)?.deref();
    if (shared !== undefined) return shared;
    // Written by another writer of the bucket, past what the walkers downstream can take: skipped.
    if (!jsonDepthWithin(bytes, this.#limits.maxJsonDepth)) return undefined;
    const parsed = ToolsetSchema.safeParse(safeDecode(bytes));
    if (!parsed.success) return undefined;
    const toolset = Object.freeze(parsed.data);
    this.#interned.set(digest, new WeakRef(toolset));
    if (this.#interned.size > 100_000) {
      for (const [key, ref] of this.#interned) if (ref.deref() === undefined) this.#interned.delete(key);
    }
    return toolset;
  }

  /**
   * Registers or replaces a toolset; returns the new revision. A toolset over the limits is refused
   * with a `LimitExceededError` (PAYLOAD_TOO_LARGE or BAD_REQUEST naming the limit) and not stored.
   */
  async put(tenant: string, toolset: Toolset): Promise<number> {
    let stored = toolset;
    if (this.#vet !== undefined) {
      this.#assertShape(toolset);
      stored = await this.#vet(tenant, toolset, this.toolsets(tenant));
    }
    const value = this.#encodeWithinLimits(stored, this.#vet !== undefined);
    const revision = await this.#kv.put(`${tenant}.${encodeId(stored.id)}`, value);
    // Apply locally too, so a reply never races the watch on this replica.
    this.#apply({
      key: `${tenant}.${encodeId(stored.id)}`,
      value,
      revision,
      operation: 'PUT',
    } as KvEntry);
    return revision;
  }

  /** Removes a toolset; false when the tenant did not have it. */
  async delete(tenant: string, toolsetId: string): Promise<boolean> {
    const existed = this.#tenants.get(tenant)?.has(toolsetId) ?? false;
    await this.#kv.delete(`${tenant}.${encodeId(toolsetId)}`);
    // The watch may have delivered the deletion already; count it once.
    if (this.#tenants.get(tenant)?.delete(toolsetId) === true) this.#bump(tenant);
    return existed;
  }

  /** Tenants that have (or had) toolsets, as this replica follows the registry. */
  tenants(): Iterable<string> {
    return this.#tenants.keys();
  }

  /** The tenant's current toolsets (never another tenant's). */
  toolsets(tenant: string): ReadonlyMap<string, { toolset: Toolset; revision: number }> {
    return this.#tenants.get(tenant) ?? new Map();
  }

  /** A number that changes whenever any toolset of the tenant changes. */
  generation(tenant: string): number {
    return this.#generations.get(tenant) ?? 0;
  }

  get lastRevision(): number {
    return this.#lastRevision;
  }

  /** The last revision the watch delivered (see `#watchedRevision`). */
  get watchedRevision(): number {
    return this.#watchedRevision;
  }

  /** The bucket's last revision as its stream leader reports it (one JetStream API request). */
  async streamRevision(): Promise<number> {
    return (await this.#kv.status()).streamInfo.state.last_seq;
  }

  stop(): void {
    this.#stopped = true;
    this.#watch?.stop();
  }
}

function safeDecode(data: Uint8Array): unknown {
  try {
    return codec.decode(data);
  } catch {
    return undefined;
  }
}
