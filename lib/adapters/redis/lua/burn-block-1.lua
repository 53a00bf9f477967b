--[[
  Abandons the numbers left in a tenant's counter for one (day, shift), so the next
  number comes from a fresh block above the database's ceiling. Used when the database
  refused a number as already stored: the counter is stale (a promoted replica that
  missed writes, a restore that raced an order in flight).

  KEYS[1]  the tenant's counter (see issue-number-1.lua for its fields)
  ARGV[1]  business day ("YYYY-MM-DD")
  ARGV[2]  shift

  Returns  1 when the block was abandoned; 0 when the counter is elsewhere already.
]]
local s = redis.call('HMGET', KEYS[1], 'day', 'shift', 'max')
if s[1] ~= ARGV[1] or tonumber(s[2]) ~= tonumber(ARGV[2]) then
  return 0
end
redis.call('HSET', KEYS[1], 'cur', s[3], 'lease', 0)
redis.call('HDEL', KEYS[1], 'nlo', 'nhi')
return 1
