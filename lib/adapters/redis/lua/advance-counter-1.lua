--[[
  Moves a tenant's counter forward to a given state, never backwards. Used to rebuild a
  lost counter from PostgreSQL and to start a new shift.

  KEYS[1]  the tenant's counter, a hash {day, shift, last}
  ARGV[1]  business day ("YYYY-MM-DD")
  ARGV[2]  shift number
  ARGV[3]  last number issued in that shift (first number - 1 for a fresh shift)
  ARGV[4]  when the key may expire, milliseconds since the epoch

  Returns  1 when the counter was written; 0 when it already was at or past that state
           (another node got there first, or the caller's view is stale).

  "Forward" is the order of (day, shift, last): a later day, else a later shift, else a
  higher last number.
]]
local state = redis.call('HMGET', KEYS[1], 'day', 'shift', 'last')
local day, shift, last = state[1], tonumber(state[2]), tonumber(state[3])
local newShift, newLast = tonumber(ARGV[2]), tonumber(ARGV[3])

local ahead = (not day)
  or ARGV[1] > day
  or (ARGV[1] == day and newShift > shift)
  or (ARGV[1] == day and newShift == shift and newLast > last)

if not ahead then
  return 0
end

redis.call('HSET', KEYS[1], 'day', ARGV[1], 'shift', newShift, 'last', newLast)
redis.call('PEXPIREAT', KEYS[1], ARGV[4])
return 1
