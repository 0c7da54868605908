import {
  Cluster,
  Redis,
  SentinelConnector,
  type ChainableCommander,
  type ClusterOptions,
  type RedisOptions,
} from 'ioredis';
import type { Logger } from 'pino';
import { redactUrl } from '@toolsearch/client';
import { redisConnectionUrl, redisCredentials, type RedisConfig } from './connection-config';
import { ThrottledLog } from './throttled-log';

/** A connection to the daemon's Redis, whichever the mode: one server or a primary behind Sentinel (`Redis`), or a Redis Cluster. */
export type RedisClient = Redis | Cluster;

/**
 * What a connection is for, which decides how it behaves while Redis is away:
 * - `commands`: the daemon's own requests. Fails fast (no offline queue, one retry) so a request
 *   answers `UNAVAILABLE` at once; pipelines automatically (a fan-out's thousands of hash swaps
 *   otherwise cost a socket write each).
 * - `producer`: BullMQ queues that add jobs; fails fast too.
 * - `worker`: BullMQ workers, whose blocking commands must wait through a reconnect
 *   (`maxRetriesPerRequest: null`, as BullMQ requires).
 */
export type RedisRole = 'commands' | 'producer' | 'worker';

const ROLE_OPTIONS: Record<RedisRole, RedisOptions> = {
  commands: { enableOfflineQueue: false, maxRetriesPerRequest: 1, enableAutoPipelining: true },
  producer: { enableOfflineQueue: false, maxRetriesPerRequest: 1 },
  worker: { maxRetriesPerRequest: null },
};

/**
 * How long a Cluster connection keeps redirecting and retrying a command whose slot's master is
 * away. ioredis's defaults (16 redirections, 100 ms apart) held each command of a lost master for
 * about 2.5 s, so a request of several commands outlived its caller's timeout (TIMEOUT instead of
 * UNAVAILABLE); requests give up after about 0.4 s. Workers wait through a failover instead.
 */
const CLUSTER_RETRIES: Record<
  RedisRole,
  Pick<ClusterOptions, 'maxRedirections' | 'retryDelayOnFailover' | 'retryDelayOnClusterDown'>
> = {
  commands: { maxRedirections: 4, retryDelayOnFailover: 100, retryDelayOnClusterDown: 100 },
  producer: { maxRedirections: 4, retryDelayOnFailover: 100, retryDelayOnClusterDown: 100 },
  worker: { retryDelayOnFailover: 200, retryDelayOnClusterDown: 200 },
};

/**
 * ioredis 5.11.1's Sentinel connector with one race closed. Its failover detector (subscribed to
 * `+switch-master`) is made for one connection to the primary but outlives it: once that connection
 * is lost (the primary killed) the client reconnects, asking a Sentinel for the primary each time,
 * and a `+switch-master` arriving while it asks made `connect()` throw "Connection is closed." —
 * after which ioredis leaves the client `end`, never retrying, and every command is refused for
 * good. The more likely the slower the Sentinels answer (a busy machine). The detector is retired
 * when a new attempt begins (which asks the Sentinels anyway); ioredis makes a new one when that
 * attempt connects. Given as the `Connector` option, so BullMQ's `duplicate()`s get it too.
 */
class FailoverSafeSentinelConnector extends SentinelConnector {
  // ioredis constructs a `Connector` with the client's options, typed `unknown`.
  constructor(options: unknown) {
    super(options as ConstructorParameters<typeof SentinelConnector>[0]);
  }

  override connect(...args: Parameters<SentinelConnector['connect']>): ReturnType<SentinelConnector['connect']> {
    const self = this as unknown as { failoverDetector: { cleanup(): void } | null };
    self.failoverDetector?.cleanup();
    self.failoverDetector = null;
    return super.connect(...args);
  }
}

/** `host:port` (`[v6]:port`) as ioredis takes it. */
function hostPort(entry: string): { host: string; port: number } {
  const colon = entry.lastIndexOf(':');
  return { host: entry.slice(0, colon).replace(/^\[(.*)\]$/, '$1'), port: Number(entry.slice(colon + 1)) };
}

/**
 * The one place that opens Redis connections, for the configured `redis.mode`: the session store,
 * approvals, quotas, rate limits, audit and BullMQ queues and workers all get theirs here, so each
 * follows a Sentinel failover or a Cluster's slots the same way, with the same credentials.
 * Connection problems are logged at most once per 10 s per connection kind, with the count of the
 * ones left out: a Redis that is gone otherwise logs on every reconnect attempt of every client.
 */
export class RedisConnector {
  readonly #config: RedisConfig;
  readonly #problems: ThrottledLog;

  constructor(config: RedisConfig, log: Logger) {
    this.#config = config;
    this.#problems = new ThrottledLog(log, 10_000);
  }

  get mode(): RedisConfig['mode'] {
    return this.#config.mode;
  }

  /** Where Redis is, for messages: the URL without its credentials, the seed nodes, or the Sentinels and name. */
  get location(): string {
    const config = this.#config;
    if (config.mode === 'cluster') return `cluster ${(config.nodes ?? []).join(',')}`;
    if (config.mode === 'sentinel')
      return `primary '${config.name ?? ''}' of sentinels ${(config.sentinels ?? []).join(',')}`;
    return redactUrl(redisConnectionUrl(config));
  }

  /** The setting to check when Redis cannot be reached. */
  get locationSetting(): string {
    if (this.#config.mode === 'cluster') return 'redis.nodes (TOOLSEARCH_REDIS_NODES)';
    if (this.#config.mode === 'sentinel')
      return 'redis.sentinels and redis.name (TOOLSEARCH_REDIS_SENTINELS, TOOLSEARCH_REDIS_NAME)';
    return 'redis.url (TOOLSEARCH_REDIS_URL)';
  }

  /**
   * A new connection for `role`, not connected yet when `lazyConnect` (then call `connect()`).
   * `label` names it in the throttled problem log.
   */
  create(role: RedisRole, label: string, extra: { lazyConnect?: boolean } = {}): RedisClient {
    const client = this.#open(role, extra.lazyConnect ?? false);
    client.on('error', (error: Error) => this.#problems.warn(`redis:${label}`, 'redis connection problem', error));
    return client;
  }

  /** Logs a problem of a BullMQ queue or worker (its 'error' event) at the same throttled rate. */
  problem(label: string, message: string, error: Error): void {
    this.#problems.warn(`bullmq:${label}`, message, error);
  }

  #open(role: RedisRole, lazyConnect: boolean): RedisClient {
    const config = this.#config;
    const options = ROLE_OPTIONS[role];
    const credentials = redisCredentials(config);
    if (config.mode === 'cluster') {
      const { enableOfflineQueue, enableAutoPipelining, ...perNode } = options;
      const clusterOptions: ClusterOptions = {
        lazyConnect,
        ...(enableOfflineQueue !== undefined ? { enableOfflineQueue } : {}),
        ...(enableAutoPipelining !== undefined ? { enableAutoPipelining } : {}),
        ...CLUSTER_RETRIES[role],
        redisOptions: { ...perNode, ...credentials },
      };
      return new Cluster((config.nodes ?? []).map(hostPort), clusterOptions);
    }
    if (config.mode === 'sentinel') {
      return new Redis({
        ...options,
        ...credentials,
        lazyConnect,
        sentinels: (config.sentinels ?? []).map(hostPort),
        name: config.name ?? '',
        role: 'master',
        // Sentinel's +switch-master moves the connection to the new primary at once, instead of
        // when the old one's socket finally errors.
        failoverDetector: true,
        Connector: FailoverSafeSentinelConnector,
        ...(config.sentinelUsername !== undefined ? { sentinelUsername: config.sentinelUsername } : {}),
        ...(config.sentinelPassword !== undefined ? { sentinelPassword: config.sentinelPassword } : {}),
      });
    }
    return new Redis(redisConnectionUrl(config), { ...options, lazyConnect });
  }
}

/**
 * Runs a transaction and throws the first command's error: ioredis resolves `exec()` with the
 * per-command errors (or null when the transaction was aborted) rather than rejecting.
 */
export async function execOrThrow(multi: ChainableCommander): Promise<[Error | null, unknown][]> {
  const replies = await multi.exec();
  if (replies === null) throw new TransactionAbortedError();
  const failed = replies.find(([error]) => error !== null)?.[0];
  if (failed) throw failed;
  return replies;
}

/** A MULTI that Redis discarded (EXECABORT or a watched key): nothing of it was applied. */
export class TransactionAbortedError extends Error {
  readonly code = 'TRANSACTION_ABORTED';
  constructor() {
    super('the Redis transaction was aborted; nothing of it was applied');
    this.name = 'TransactionAbortedError';
  }
}
