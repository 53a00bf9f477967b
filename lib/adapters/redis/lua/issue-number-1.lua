--[[
  Issues the next queue number of one tenant, in one atomic step.

  KEYS[1]  the tenant's counter, a hash {day, shift, last}
  ARGV[1]  today's business day ("YYYY-MM-DD") by the calling node's clock
  ARGV[2]  when the key may expire, milliseconds since the epoch (passed in: the
           script never reads a clock)

  Returns  {day, shift, number}, or false when the counter is missing (Redis restarted
           empty, the key was evicted or expired): the caller rebuilds it from
           PostgreSQL with advance-counter-1.lua and calls again. Never restarts at 1 on
           its own for a missing key: that is how a lost counter would repeat numbers.

  The business day only moves forward: a node whose clock lags (ARGV[1] older than the
  stored day) gets a number of the stored, later day. A newer day resets to shift 1,
  number 1. The expiry is set in the same script as the write (never INCR then EXPIRE).
]]
local state = redis.call('HMGET', KEYS[1], 'day', 'shift')
local day = state[1]
if not day then
  return false
end

if ARGV[1] > day then
  redis.call('HSET', KEYS[1], 'day', ARGV[1], 'shift', 1, 'last', 1)
  redis.call('PEXPIREAT', KEYS[1], ARGV[2])
  return {ARGV[1], 1, 1}
end

local number = redis.call('HINCRBY', KEYS[1], 'last', 1)
if ARGV[1] == day then
  redis.call('PEXPIREAT', KEYS[1], ARGV[2])
end
return {day, tonumber(state[2]), number}
