import { createHash } from 'node:crypto';
import { ReplyError } from 'ioredis';
import type { RedisClient } from './redis-client';

/**
 * A Lua script the daemon runs on Redis: sent by its SHA1 (`EVALSHA`), and in full (`EVAL`) only
 * when the server answers that it does not hold it — the first run after Redis started, failed
 * over, or on a cluster node that never ran it (`EVAL` also caches it there). Sending the text of
 * every script on every call cost a rate-limited tool call, a quota sync or a lease renewal its
 * whole script in bytes on the wire and a SHA1 of it on the server. Never run one inside `multi()`:
 * a NOSCRIPT there fails that command of the transaction, and nothing sends the text after it.
 */
export class RedisScript {
  readonly sha: string;

  constructor(readonly source: string) {
    this.sha = createHash('sha1').update(source).digest('hex');
  }

  /** Runs the script with `keyCount` keys, then the arguments (as `EVAL` takes them). */
  async run(redis: RedisClient, keyCount: number, ...keysAndArgs: (string | number)[]): Promise<unknown> {
    try {
      return await redis.evalsha(this.sha, keyCount, ...keysAndArgs);
    } catch (error) {
      if (!isNoScript(error)) throw error;
      return redis.eval(this.source, keyCount, ...keysAndArgs);
    }
  }
}

/**
 * Whether Redis answered that it does not hold the script. An error reply starts with its code
 * (`NOSCRIPT`), by the protocol; the rest of the line is free text.
 */
function isNoScript(error: unknown): boolean {
  return error instanceof ReplyError && (error as Error).message.split(' ', 1)[0] === 'NOSCRIPT';
}
