/**
 * The Redis side of locks and fenced writes: the key names and the scripts, each one atomic on the
 * server, so that no two instances interleave inside one. A lock is SET NX PX with a random owner
 * value and is released only by that owner (compare and delete); its fence is INCR on a counter
 * key, lifted above the fence the record already carries; a fenced write compares its fence with
 * the one in the stored record's envelope (readable without the key) before it replaces it.
 * Pure: strings only; the key names are in `redis-keys.ts`.
 */
/**
 * An idle counter goes after a day: no lock lives that long, and the next fence is lifted above
 * the record's own, so a counter that restarts is never below what was written.
 */
export const FENCE_COUNTER_LIFETIME_MS = 24 * 3600 * 1000;

/** The fence carried by a sealed record's text, read inside a script; 0 when there is none. */
const WRITTEN_FENCE = `
local function writtenFence(text)
  if not text then return 0 end
  local ok, sealed = pcall(cjson.decode, text)
  if ok and type(sealed) == 'table' and type(sealed.fence) == 'number' then return sealed.fence end
  return 0
end
`;

/** KEYS: lock, fence counter, record. ARGV: owner, ttl (ms), counter lifetime (ms). The fence, or nil while held. */
export const TAKE_LOCK = `${WRITTEN_FENCE}
if not redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return false end
local fence = redis.call('INCR', KEYS[2])
local written = writtenFence(redis.call('GET', KEYS[3]))
if fence <= written then
  fence = written + 1
  redis.call('SET', KEYS[2], fence)
end
redis.call('PEXPIRE', KEYS[2], ARGV[3])
return fence`;

/** KEYS: lock. ARGV: owner. Deletes the lock only while it is still this owner's. */
export const RELEASE_LOCK =
  "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0";

/**
 * KEYS: record. ARGV: fence, sealed record, TTL in seconds ('' for none), '1' to replace only a
 * record that is there. 1 when written, 0 when refused.
 */
export const WRITE_FENCED = `${WRITTEN_FENCE}
local current = redis.call('GET', KEYS[1])
if not current and ARGV[4] == '1' then return 0 end
if writtenFence(current) > tonumber(ARGV[1]) then return 0 end
if ARGV[3] == '' then redis.call('SET', KEYS[1], ARGV[2]) else redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[3]) end
return 1`;
