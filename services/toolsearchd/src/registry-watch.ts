import type { NatsConnection } from 'nats';
import type { Logger } from 'pino';
import type { ToolsetRegistry } from './registry.adapter';

/** How long to wait between attempts to resume the registry watch. */
export interface BackoffPolicy {
  readonly initialMs: number;
  readonly maxMs: number;
}

/**
 * 250 ms doubling to 5 s: a JetStream stream elects a new leader in a few seconds, and every
 * replica of the daemon retries at once after a NATS node fails — the jitter spreads them out.
 */
export const RESUME_BACKOFF: BackoffPolicy = { initialMs: 250, maxMs: 5000 };

/**
 * The delay before attempt `attempt` (0-based): exponential, capped at `maxMs`, drawn uniformly
 * from its upper half ("equal jitter": never less than half the step, so retries still back off).
 */
export function backoffDelay(attempt: number, policy: BackoffPolicy, random: () => number = Math.random): number {
  const step = Math.min(policy.maxMs, policy.initialMs * 2 ** Math.min(attempt, 30));
  return Math.round(step / 2 + random() * (step / 2));
}

/**
 * How often the watch is checked against the stream. A watch can stall without ending: after its
 * stream leader is lost, the client's ordered consumer may never be recreated and no error comes.
 */
export const STALL_CHECK_MS = 3000;

/**
 * Decides, from successive checks, whether a watch has stalled: at the previous check the stream
 * already held a revision the watch had not delivered, and the watch delivered nothing since (so
 * a write made just before a check, its echo still in flight, is not a stall). Revisions it
 * already resumed for are not tried again: an entry removed from the stream (a purged last value)
 * is never delivered, and resuming for it forever would only churn consumers.
 */
export class StallDetector {
  #previousWatched = -1;
  #previousStream = -1;
  #resumedFor = -1;

  /** True when the watch should be resumed now. */
  check(watched: number, stream: number): boolean {
    const wasBehind = this.#previousStream > this.#previousWatched;
    const idle = watched === this.#previousWatched;
    this.#previousWatched = watched;
    this.#previousStream = stream;
    if (!wasBehind || !idle || stream <= watched || stream === this.#resumedFor) return false;
    this.#resumedFor = stream;
    return true;
  }
}

/** The warning for a bucket whose stream has other replicas than `nats.kvReplicas` asks for, or undefined. */
export function replicaMismatch(bucket: string, wanted: number, actual: number): string | undefined {
  if (wanted === actual) return undefined;
  return (
    `the registry bucket '${bucket}' exists with ${actual} replica(s) but nats.kvReplicas is ${wanted}; ` +
    `an existing bucket keeps its replicas. Change them with: nats stream edit KV_${bucket} --replicas ${wanted}`
  );
}

/**
 * Keeps the registry watch alive: after a NATS reconnect, or when the watch ends by itself (its
 * consumer could not be recreated while the stream had no leader), it resumes from the last
 * revision seen, retrying with backoff until it succeeds. Resuming once and giving up left a
 * replica serving stale toolsets for good after one TIMEOUT. Its state is what `/readyz` reports.
 */
export class RegistryWatch {
  readonly #nc: NatsConnection;
  readonly #registry: ToolsetRegistry;
  readonly #log: Logger;
  readonly #backoff: BackoffPolicy;
  #natsUp = true;
  #watched = true;
  #resuming: Promise<void> | undefined;
  #closed = false;
  #timer: NodeJS.Timeout | undefined;
  #wake: () => void = () => undefined;
  #stallTimer: NodeJS.Timeout | undefined;
  readonly #stalls = new StallDetector();

  constructor(deps: { nc: NatsConnection; registry: ToolsetRegistry; log: Logger; backoff?: BackoffPolicy }) {
    this.#nc = deps.nc;
    this.#registry = deps.registry;
    this.#log = deps.log;
    this.#backoff = deps.backoff ?? RESUME_BACKOFF;
  }

  /**
   * Follows the connection's status until it closes, and checks every `stallCheckMs` that the
   * watch keeps up with the stream. Call once the registry has started.
   */
  follow(stallCheckMs = STALL_CHECK_MS): void {
    this.#stallTimer = setInterval(() => void this.#checkStall(), stallCheckMs).unref();
    void (async () => {
      for await (const status of this.#nc.status()) {
        if (status.type === 'disconnect') {
          this.#natsUp = false;
          this.#watched = false;
        }
        if (status.type !== 'reconnect') continue;
        this.#natsUp = true;
        this.#log.info('NATS connection back; resuming the registry watch');
        this.resume();
      }
    })();
  }

  async #checkStall(): Promise<void> {
    if (!this.#natsUp || this.#resuming !== undefined || this.#closed) return;
    let stream: number;
    try {
      stream = await this.#registry.streamRevision();
    } catch {
      return; // no stream leader right now: the next check asks again
    }
    const watched = this.#registry.watchedRevision;
    if (!this.#stalls.check(watched, stream)) return;
    this.#log.warn({ watched, stream }, 'the registry watch stalled behind the stream; resuming it');
    this.resume();
  }

  /** The watch ended or may have missed changes: resume it (once at a time, until it succeeds). */
  resume(): void {
    this.#watched = false;
    if (this.#resuming !== undefined) return;
    this.#resuming = this.#retry().finally(() => (this.#resuming = undefined));
  }

  async #retry(): Promise<void> {
    for (let attempt = 0; !this.#closed; attempt++) {
      try {
        await this.#registry.resume();
        this.#watched = true;
        if (attempt > 0) this.#log.info({ attempts: attempt + 1 }, 'registry watch resumed');
        return;
      } catch (error) {
        const delay = backoffDelay(attempt, this.#backoff);
        this.#log.warn(
          { err: (error as Error).message, attempt: attempt + 1, retryInMs: delay },
          'could not resume the registry watch; retrying',
        );
        await new Promise<void>((resolve) => {
          this.#wake = resolve;
          this.#timer = setTimeout(resolve, delay);
        });
      }
    }
  }

  /** For `/readyz`: NATS connected, and the registry readable and followed (no change being missed). */
  readiness(): { nats: boolean; registry: boolean } {
    const nats = this.#natsUp && !this.#nc.isClosed();
    return { nats, registry: nats && this.#watched };
  }

  /** Stops retrying. Idempotent. */
  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
    clearInterval(this.#stallTimer);
    this.#wake();
  }
}
