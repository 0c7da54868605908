import { Queue } from 'bullmq';
import { workerQueueName, workerQueuePrefix, type WorkerJob } from '@toolsearch/proto';
import type { RedisClient, RedisConnector } from '../redis-client';

/**
 * Subagent and kanban jobs: one BullMQ queue per role and tenant (`subagent-<tenant>`,
 * `kanban_worker-<tenant>`), each tenant's under a BullMQ prefix of its own
 * (`<keyPrefix>{<tenant>}:w`, see `workerQueuePrefix`). A worker pool serves exactly one tenant's
 * jobs, and its Redis ACL user, limited to `~<keyPrefix>{<tenant>}:w:*`, reaches those queues and
 * nothing else: not another tenant's jobs, not sessions, tokens or approvals. The job id is the
 * child session's id.
 */
export class WorkerQueues {
  readonly #connection: RedisClient;
  readonly #connector: RedisConnector;
  readonly #keyPrefix: string;
  readonly #queues = new Map<string, Queue>();

  /** `keyPrefix` is the daemon's Redis key prefix (`namespace.redisPrefix`). */
  constructor(connector: RedisConnector, keyPrefix: string) {
    this.#connector = connector;
    this.#connection = connector.create('producer', 'worker-queues');
    this.#keyPrefix = keyPrefix;
  }

  async enqueue(job: WorkerJob): Promise<{ queue: string; id: string; prefix: string }> {
    const name = workerQueueName(job.role, job.tenant);
    const prefix = workerQueuePrefix(this.#keyPrefix, job.tenant);
    const key = `${prefix}:${name}`;
    let queue = this.#queues.get(key);
    if (queue === undefined) {
      queue = new Queue(name, { connection: this.#connection, prefix });
      queue.waitUntilReady().catch(() => undefined);
      queue.on('error', (error) => this.#connector.problem('worker-queues', 'worker queue problem', error));
      this.#queues.set(key, queue);
    }
    await queue.add('task', job, { jobId: job.session, removeOnComplete: 1000, removeOnFail: 1000 });
    return { queue: name, id: job.session, prefix };
  }

  async close(): Promise<void> {
    for (const queue of this.#queues.values()) await queue.close().catch(() => undefined);
    this.#queues.clear();
    this.#connection.disconnect();
  }
}
