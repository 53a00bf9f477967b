--[[
  Installs a block of numbers reserved in the database into a tenant's counter.

  KEYS[1]  the tenant's counter (see issue-numbers-n.lua for its fields)
  ARGV[1]  business day of the block ("YYYY-MM-DD")
  ARGV[2]  shift of the block
  ARGV[3]  lo: the block is the numbers lo + 1 … hi
  ARGV[4]  hi (hi = lo: no numbers; a restore then only moves the counter to the block's
           day and shift, and its next caller reserves a block there)
  ARGV[5]  when the key may expire, milliseconds since the epoch (by the caller's clock;
           kept within Redis's own now + 12 h … + 7 days: includes/expiry.lua)
  ARGV[6]  mode: "add"     only for the counter's own (day, shift): becomes the current
                           block if that is used up, else the next one
                 "restore" as "add", and also rebuilds a missing counter or moves one
                           that is behind (older day, or older shift of the day) to it

  Returns  Flag.YES when installed; Flag.NO when refused (codes: lua/reply-codes.ts): the
           counter has moved on to a later day or shift, already holds numbers at or above
           lo, or has a block in reserve at or above this one. A refused block is never
           used: its numbers are skipped, never repeated. A lower block in reserve gives
           way: a block reserved later is fresh, while the one in reserve may be a promoted
           replica's stale copy.
]]
--- @include "reply-codes"
--- @include "block-field"
--- @include "expiry"
local key = KEYS[1]
local bday, bshift = ARGV[1], tonumber(ARGV[2])
local lo, hi = tonumber(ARGV[3]), tonumber(ARGV[4])
local s = redis.call('HMGET', key, 'day', 'shift', 'lo', 'max', 'nhi')
local day, shift = s[1], tonumber(s[2])
local field = blockField(bday, bshift, lo, hi)

local same = day == bday and shift == bshift
if not same then
  local behind = (not day) or bday > day or (bday == day and bshift > shift)
  if ARGV[6] ~= 'restore' or not behind then
    return Flag.NO
  end
  redis.call('DEL', key)
  redis.call('HSET', key, 'day', bday, 'shift', bshift, 'lo', lo, 'max', hi)
  if field then
    redis.call('HSET', key, field, hi - lo)
  end
  redis.call('PEXPIREAT', key, expireAtMs(ARGV[5]))
  return Flag.YES
end

if hi <= lo then
  -- An empty block only ever moves a counter; this one is there already.
  return Flag.NO
end
local max = tonumber(s[4]) or 0
if lo < max then
  return Flag.NO
end
local current = blockField(day, shift, s[3], max)
local left = 0
if current then
  left = tonumber(redis.call('HGET', key, current)) or 0
end
if left <= 0 then
  if current then
    redis.call('HDEL', key, current)
  end
  redis.call('HSET', key, 'lo', lo, 'max', hi, field, hi - lo)
  redis.call('HDEL', key, 'lease')
elseif (not s[5]) or tonumber(s[5]) <= lo then
  redis.call('HSET', key, 'nlo', lo, 'nhi', hi)
  redis.call('HDEL', key, 'lease')
else
  return Flag.NO
end
redis.call('PEXPIREAT', key, expireAtMs(ARGV[5]))
return Flag.YES
