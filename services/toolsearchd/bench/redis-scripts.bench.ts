/**
 * What sending the daemon's Lua scripts by SHA1 saves: the quota sync script (`PAY_SCRIPT`, the
 * largest) run on loopback Redis as `EVAL` with its text on every call (the old way) and through
 * `RedisScript` (`EVALSHA`), alternating rounds, sequential and 32 in flight. Prints calls per
 * second and the bytes each call sends.
 *
 *   node --import tsx services/toolsearchd/bench/redis-scripts.bench.ts [--calls 20000] [--rounds 3]
 */
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { PAY_SCRIPT } from '../src/quota-debts';

const { values } = parseArgs({
  options: { calls: { type: 'string', default: '20000' }, rounds: { type: 'string', default: '3' } },
});
const calls = Number(values.calls);
const redis = new Redis(process.env['TOOLSEARCH_REDIS_URL'] ?? 'redis://127.0.0.1:6379');
const prefix = `bench-scripts-${randomUUID().slice(0, 8)}`;
const args = (at: number) =>
  [`${prefix}:w:${at % 100}`, `${prefix}:d:${at % 100}`, 1, 0, 1000, 5000, 5000, 10000, 1] as const;

async function run(way: 'eval' | 'evalsha', inFlight: number): Promise<number> {
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < calls) {
        const at = next++;
        if (way === 'eval') await redis.eval(PAY_SCRIPT.source, 2, ...args(at));
        else await PAY_SCRIPT.run(redis, 2, ...args(at));
      }
    }),
  );
  return Math.round(calls / ((performance.now() - started) / 1000));
}

const bytes = (text: string) => Buffer.byteLength(text);
console.log(`bytes of script per call: EVAL ${bytes(PAY_SCRIPT.source)}, EVALSHA ${bytes(PAY_SCRIPT.sha)}`);
for (let round = 1; round <= Number(values.rounds); round += 1)
  for (const inFlight of [1, 32])
    for (const way of ['eval', 'evalsha'] as const)
      console.log(`round ${round} in flight ${inFlight} ${way.padEnd(7)} ${await run(way, inFlight)} calls/s`);
const stale = await redis.keys(`${prefix}:*`);
if (stale.length > 0) await redis.del(...stale);
redis.disconnect();
