-- When a tenant's counter may expire, by Redis's own clock: the caller's time (computed
-- from its node's clock) kept between 12 hours and 7 days from Redis's now, so a node
-- whose clock is days behind never sets an expiry that is already past (the key would
-- vanish on every write) and one far ahead never keeps a key for months. Expiry is
-- clean-up only; a key that lives longer costs memory, never a number.
local EXPIRY_FLOOR_MS = 12 * 3600 * 1000
local EXPIRY_CAP_MS = 7 * 24 * 3600 * 1000

local function expireAtMs(wanted)
  local t = redis.call('TIME')
  local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  local at = tonumber(wanted) or 0
  if at < now + EXPIRY_FLOOR_MS then
    return now + EXPIRY_FLOOR_MS
  end
  if at > now + EXPIRY_CAP_MS then
    return now + EXPIRY_CAP_MS
  end
  return at
end
