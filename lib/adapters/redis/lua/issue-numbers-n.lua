--[[
  Issues queue numbers from the tenants' reserved blocks: every number the calling node's
  cashiers asked for since its last call, for one or more tenants, in one atomic step.
  The `-n` in the name: the caller passes the number of keys (one per tenant).

  KEYS[i]  tenant i's counter, a hash:
             day, shift   the business day ("YYYY-MM-DD") and shift being numbered
             lo, max      the current block: its numbers are lo + 1 … max (max 0: none)
             <day:shift:lo:max>
                          the current block's own field: how many numbers it has left
                          (0: used up); its name is derived, never stored twice
             nlo, nhi     the next block (nlo, nhi], when one is in reserve
             lease        until when (ms) one caller holds the right to reserve a block;
                          absent when no one has
  ARGV[1]  now, milliseconds since the epoch, by the caller's clock (the leases; Redis's own
           clock only bounds the key's expiry)
  ARGV[2]  low water: ask for the next block when fewer numbers than this are left
  ARGV[3]  lease duration in milliseconds
  then four per tenant i, at ARGV[4i] … ARGV[4i + 3]:
           the block field the caller was told last ("" for none, or when its day is
           older than today): the fast path tries it first
           today's business day by the calling node's clock
           when the key may expire, milliseconds since the epoch (by the caller's
           clock; kept within Redis's own now + 12 h … + 7 days: includes/expiry.lua)
           how many numbers its callers ask for (at least 1)

  Returns  one flat array; for each key, in order, one of (codes: lua/reply-codes.ts):
           IssueReply.FAST, left
                          fast path: the hinted block handed out the numbers asked for and
                          has `left` numbers left, so they are max - left - count + 1 …
                          max - left (the caller knows max: it is in the field's name)
           IssueReply.FAST_REFILL, left
                          the same, and the caller of the last number holds the lease to
                          reserve the next block (it crossed the low-water mark)
           IssueReply.FULL, day, shift, refill, field, lo, max, m, n1 … nm
                          full path, every caller got a number (m = count); refill =
                          Flag.YES asks the caller of the last one to reserve the next
                          block; field, lo, max describe the current block (field = "" when
                          none)
           IssueReply.RAN_OUT, day, shift, lease, field, lo, max, m, n1 … nm
                          full path, the blocks ran out after m numbers; lease = Flag.YES
                          asks the first caller left without one to reserve a block,
                          Flag.NO: wait
           IssueReply.MISSING, lease
                          the counter is missing (Redis restarted empty, the key was
                          evicted); lease = Flag.YES asks the first caller to restore it
                          from the database, which knows every number handed out; Flag.NO:
                          wait

  The fast path is one HINCRBY on the hinted field. A block's field exists only while the
  block is current, so whatever the hint says, numbers come only from the real current
  block: a field that did not exist (it reads as 0 left), a block used up or overrun, all
  undo the HINCRBY and take the full path, which reads the whole state. The low-water
  check runs once per block, on the number that crosses it.

  The business day only moves forward: a caller whose clock lags gets a number of the
  stored, later day. A newer day starts at shift 1 with no block. The expiry is set in the
  same script as the write that creates a day (never INCR then EXPIRE); install-block-1.lua
  renews it with every block, so the hot path does not pay for it per number.
]]
local now, lowWater, leaseMs = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local out = {}

--- @include "reply-codes"
--- @include "block-field"
--- @include "expiry"

local function push(...)
  for _, v in ipairs({...}) do
    out[#out + 1] = v
  end
end

-- One HINCRBY on the hinted block; false when the full path must decide.
local function fast(key, field, count)
  local left = redis.call('HINCRBY', key, field, -count)
  local before = left + count
  if left >= 0 then
    local refill = before >= lowWater and left < lowWater
    if refill then
      local s = redis.call('HMGET', key, 'nlo', 'lease')
      refill = (not s[1]) and (tonumber(s[2]) or 0) <= now
      if refill then
        redis.call('HSET', key, 'lease', now + leaseMs)
      end
    end
    out[#out + 1] = refill and IssueReply.FAST_REFILL or IssueReply.FAST
    out[#out + 1] = left
    return true
  end
  -- Not enough left, or no such field (it reads as 0): undo.
  local s = redis.call('HMGET', key, 'day', 'shift', 'lo', 'max')
  if before > 0 or (s[1] and blockField(s[1], s[2], s[3], s[4]) == field) then
    redis.call('HSET', key, field, before)
  else
    redis.call('HDEL', key, field)
  end
  return false
end

-- The full path: reads the whole state; handles a new day, block switches, a missing
-- counter and the leases.
local function full(key, today, expireAt, count)
  local s = redis.call('HMGET', key, 'day', 'shift', 'lo', 'max', 'nlo', 'nhi', 'lease')
  local day = s[1]
  local lease = tonumber(s[7]) or 0
  if not day then
    -- One caller restores; the placeholder holding its lease expires on its own.
    if lease <= now then
      redis.call('HSET', key, 'lease', now + leaseMs)
      redis.call('PEXPIRE', key, leaseMs * 20)
      push(IssueReply.MISSING, Flag.YES)
    else
      push(IssueReply.MISSING, Flag.NO)
    end
    return
  end
  local shift, lo, max = tonumber(s[2]), tonumber(s[3]), tonumber(s[4])
  local nlo, nhi = tonumber(s[5]), tonumber(s[6])
  local field = blockField(day, shift, lo, max)
  local cur = max
  if field then
    cur = max - (tonumber(redis.call('HGET', key, field)) or 0)
  end

  if today > day then
    day, shift, lo, max, cur, nlo, nhi, lease, field = today, 1, 0, 0, 0, nil, nil, 0, nil
    redis.call('DEL', key)
    redis.call('HSET', key, 'day', day, 'shift', 1, 'lo', 0, 'max', 0)
    redis.call('PEXPIREAT', key, expireAtMs(expireAt))
  end

  local numbers = {}
  local set = {}
  while #numbers < count do
    if cur >= max then
      if nlo and nhi and nhi > nlo then
        -- The block in reserve becomes the current one.
        if field then
          redis.call('HDEL', key, field)
        end
        lo, cur, max, nlo = nlo, nlo, nhi, nil
        field = blockField(day, shift, lo, max)
        set[#set + 1] = 'lo'; set[#set + 1] = lo
        set[#set + 1] = 'max'; set[#set + 1] = max
        redis.call('HDEL', key, 'nlo', 'nhi')
      else
        break
      end
    end
    cur = cur + 1
    numbers[#numbers + 1] = cur
  end
  if #numbers > 0 then
    set[#set + 1] = field; set[#set + 1] = max - cur
  end

  -- Whoever sees the blocks run out, or running low with none in reserve, reserves the
  -- next one; the lease keeps everyone else from doing the same.
  local flag = Flag.NO
  if (#numbers < count or ((max - cur) < lowWater and not nlo)) and lease <= now then
    set[#set + 1] = 'lease'; set[#set + 1] = now + leaseMs
    flag = Flag.YES
  end
  if #set > 0 then
    redis.call('HSET', key, unpack(set))
  end
  push(#numbers < count and IssueReply.RAN_OUT or IssueReply.FULL, day, shift, flag, field or '', field and lo or 0, field and max or 0, #numbers)
  for _, n in ipairs(numbers) do
    out[#out + 1] = n
  end
end

for i = 1, #KEYS do
  local a = 4 * i
  local hint, count = ARGV[a], tonumber(ARGV[a + 3])
  if hint == '' or not fast(KEYS[i], hint, count) then
    full(KEYS[i], ARGV[a + 1], ARGV[a + 2], count)
  end
end
return out
