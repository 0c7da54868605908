import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { workerQueueName, type WorkerJob } from '@toolsearch/proto';

/**
 * Subagent and kanban jobs: one BullMQ queue per role and tenant (`subagent-<tenant>`,
 * `kanban_worker-<tenant>`), so a worker pool serves exactly one tenant's jobs and Redis ACLs can
 * scope a worker to its tenant's keys. The job id is the child session's id.
 */
export class WorkerQueues {
  readonly #connection: Redis;
  readonly #prefix: string;
  readonly #log: Logger;
  readonly #queues = new Map<string, Queue>();

  constructor(redisUrl: string, prefix: string, log: Logger) {
    this.#connection = new Redis(redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false });
    this.#connection.on('error', () => undefined);
    this.#prefix = prefix;
    this.#log = log;
  }

  get prefix(): string {
    return this.#prefix;
  }

  async enqueue(job: WorkerJob): Promise<{ queue: string; id: string; prefix: string }> {
    const name = workerQueueName(job.role, job.tenant);
    let queue = this.#queues.get(name);
    if (queue === undefined) {
      queue = new Queue(name, { connection: this.#connection, prefix: this.#prefix });
      queue.on('error', (error) => this.#log.warn({ err: error.message, queue: name }, 'worker queue problem'));
      this.#queues.set(name, queue);
    }
    await queue.add('task', job, { jobId: job.session, removeOnComplete: 1000, removeOnFail: 1000 });
    return { queue: name, id: job.session, prefix: this.#prefix };
  }

  async close(): Promise<void> {
    for (const queue of this.#queues.values()) await queue.close().catch(() => undefined);
    this.#queues.clear();
    this.#connection.disconnect();
  }
}
