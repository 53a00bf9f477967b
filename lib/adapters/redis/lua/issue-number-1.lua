--[[
  Issues the next queue number of one tenant from its reserved block, in one atomic step.

  KEYS[1]  the tenant's counter, a hash:
             day, shift   the business day ("YYYY-MM-DD") and shift being numbered
             lo           where the current block starts (its numbers are lo + 1 … max)
             cur, max     the last number issued and the end of the current block
             nlo, nhi     the next block (nlo, nhi], when one is in reserve
             lease        until when (ms) one caller holds the right to reserve a block
  ARGV[1]  today's business day by the calling node's clock
  ARGV[2]  now, milliseconds since the epoch (the script never reads a clock)
  ARGV[3]  when the key may expire, milliseconds since the epoch
  ARGV[4]  low water: ask for the next block when fewer numbers than this are left
  ARGV[5]  lease duration in milliseconds

  Returns  {1, day, shift, number, refill}  a number; refill = 1 asks this caller to
                                            reserve the next block (it holds the lease)
           {2, day, shift, lease}           the blocks are used up; lease = 1 asks this
                                            caller to reserve one, 0 means wait for another
           {0, lease}                       the counter is missing (Redis restarted empty,
                                            the key was evicted); lease = 1 asks this
                                            caller to restore it from the database, which
                                            knows every number handed out; 0: wait

  The business day only moves forward: a caller whose clock lags gets a number of the
  stored, later day. A newer day starts at shift 1 with no block. The expiry is set in the
  same script as the write that creates a day (never INCR then EXPIRE); install-block-1.lua
  renews it with every block, so the hot path does not pay for it per number.
]]
local key = KEYS[1]
local today, now, leaseMs = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[5])
local s = redis.call('HMGET', key, 'day', 'shift', 'cur', 'max', 'nlo', 'nhi', 'lease')
local day = s[1]
local lease = tonumber(s[7]) or 0
if not day then
  -- One caller restores; the placeholder holding its lease expires on its own.
  if lease <= now then
    redis.call('HSET', key, 'lease', now + leaseMs)
    redis.call('PEXPIRE', key, leaseMs * 20)
    return {0, 1}
  end
  return {0, 0}
end
local shift, cur, max = tonumber(s[2]), tonumber(s[3]), tonumber(s[4])
local nlo, nhi = tonumber(s[5]), tonumber(s[6])

if today > day then
  day, shift, cur, max, nlo, nhi, lease = today, 1, 0, 0, nil, nil, 0
  redis.call('DEL', key)
  redis.call('HSET', key, 'day', day, 'shift', 1, 'lo', 0, 'cur', 0, 'max', 0, 'lease', 0)
  redis.call('PEXPIREAT', key, ARGV[3])
end

if cur >= max then
  if nlo and nhi and nhi > nlo then
    cur, max, nlo = nlo, nhi, nil
    redis.call('HSET', key, 'lo', cur, 'cur', cur, 'max', max)
    redis.call('HDEL', key, 'nlo', 'nhi')
  elseif lease <= now then
    redis.call('HSET', key, 'lease', now + leaseMs)
    return {2, day, shift, 1}
  else
    return {2, day, shift, 0}
  end
end

cur = redis.call('HINCRBY', key, 'cur', 1)
local refill = 0
if (max - cur) < tonumber(ARGV[4]) and not nlo and lease <= now then
  redis.call('HSET', key, 'lease', now + leaseMs)
  refill = 1
end
return {1, day, shift, cur, refill}
