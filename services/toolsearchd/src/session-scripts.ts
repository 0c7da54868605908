import { RedisScript } from './redis-script';

/**
 * The Redis scripts that store, update and remove a session together with the count of its
 * tenant's stored bytes (`quotas.sessionBytes`): one script each, so a count can never fall out
 * of step with the sessions it counts however a replica fails between commands. Every key is the
 * tenant's (one hash tag), so each runs on one node of a cluster.
 */

/**
 * Stores a new session if the tenant's stored bytes stay within the limit. KEYS: the descriptor,
 * the tenant's session set, the session's token digest, the tenant's per-session sizes, the
 * tenant's total, and (a child's) its parent's children. ARGV: descriptor JSON, id, token digest,
 * bytes, limit. Returns {1, total after} or {0, total now}.
 */
export const CREATE_SESSION = new RedisScript(`
local total = tonumber(redis.call('GET', KEYS[5]) or '0') or 0
local bytes = tonumber(ARGV[4])
if total + bytes > tonumber(ARGV[5]) then return {0, total} end
redis.call('SET', KEYS[1], ARGV[1])
redis.call('SADD', KEYS[2], ARGV[2])
redis.call('SET', KEYS[3], ARGV[3])
redis.call('HSET', KEYS[4], ARGV[2], bytes)
redis.call('INCRBY', KEYS[5], bytes)
if #KEYS >= 6 then redis.call('SADD', KEYS[6], ARGV[2]) end
return {1, total + bytes}
`);

/**
 * Rewrites a stored session (found tools, activation) only while it still exists — a write that
 * arrives after the session closed must not bring it back — and counts its new size. KEYS: the
 * descriptor, the tenant's per-session sizes, the tenant's total. ARGV: descriptor JSON, id,
 * bytes. Returns 1, or 0 when the session is gone.
 */
export const UPDATE_SESSION = new RedisScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('SET', KEYS[1], ARGV[1])
local old = tonumber(redis.call('HGET', KEYS[2], ARGV[2]) or '0') or 0
local bytes = tonumber(ARGV[3])
redis.call('HSET', KEYS[2], ARGV[2], bytes)
redis.call('INCRBY', KEYS[3], bytes - old)
return 1
`);

/**
 * Removes one session and takes its size off the tenant's total (never below 0). KEYS: the
 * descriptor, its children set, its published hash, its token digest, the tenant's session set,
 * per-session sizes and total. ARGV: id. Returns 1 when the descriptor was there.
 */
export const REMOVE_SESSION = new RedisScript(`
local deleted = redis.call('DEL', KEYS[1])
redis.call('DEL', KEYS[2], KEYS[3], KEYS[4])
redis.call('SREM', KEYS[5], ARGV[1])
local size = tonumber(redis.call('HGET', KEYS[6], ARGV[1]) or '0') or 0
if redis.call('HDEL', KEYS[6], ARGV[1]) == 1 and size > 0 then
  if redis.call('DECRBY', KEYS[7], size) < 0 then redis.call('SET', KEYS[7], 0) end
end
return deleted
`);

/**
 * Counts the tenant's stored bytes again from the sizes of the sessions still open, dropping the
 * sizes of sessions that are not (a replica of an older version closed them without the count).
 * KEYS: per-session sizes, the tenant's session set, the total. Returns the total.
 */
export const RECOUNT_SESSION_BYTES = new RedisScript(`
local entries = redis.call('HGETALL', KEYS[1])
local total = 0
for i = 1, #entries, 2 do
  if redis.call('SISMEMBER', KEYS[2], entries[i]) == 1 then total = total + tonumber(entries[i + 1])
  else redis.call('HDEL', KEYS[1], entries[i]) end
end
redis.call('SET', KEYS[3], total)
return total
`);
