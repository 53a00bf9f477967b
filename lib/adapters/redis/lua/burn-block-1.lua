--[[
  Abandons the numbers left in a tenant's counter, so the next number comes from a fresh
  block above the database's ceiling. Used when the database refused a number as already
  stored: the counter is stale (a promoted replica that missed writes, a restore that
  raced an order in flight).

  KEYS[1]  the tenant's counter (see issue-numbers-n.lua for its fields)
  ARGV[1]  business day ("YYYY-MM-DD") of the refused number
  ARGV[2]  its shift
  ARGV[3]  the refused number
  ARGV[4]  the highest number stored in that (day, shift): a block in reserve that starts
           at or above it holds no number anyone was given, so it is kept (after a
           failover it is the fresh block a refill just installed, not the stale one)

  A live refill lease is kept too: its holder is bringing a fresh block, and a second
  reservation racing it would leave one of the two unusable (a gap).

  Returns  Flag.YES when the block was abandoned; Flag.NO when the refused number does not
           come from the current block (a fresh block was installed since: several orders
           in flight may be refused for one stale block, and only the first burns it).
           Codes: lua/reply-codes.ts.
]]
--- @include "reply-codes"
--- @include "block-field"
local s = redis.call('HMGET', KEYS[1], 'day', 'shift', 'lo', 'max', 'nlo')
if s[1] ~= ARGV[1] or tonumber(s[2]) ~= tonumber(ARGV[2]) then
  return Flag.NO
end
local n, lo, max = tonumber(ARGV[3]), tonumber(s[3]) or 0, tonumber(s[4])
if n <= lo or n > max then
  return Flag.NO
end
-- Used up: no numbers left.
redis.call('HSET', KEYS[1], blockField(s[1], s[2], s[3], s[4]), 0)
if s[5] and tonumber(s[5]) < tonumber(ARGV[4]) then
  redis.call('HDEL', KEYS[1], 'nlo', 'nhi')
end
return Flag.YES
