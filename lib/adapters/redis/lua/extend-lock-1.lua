--[[
  Extends a lock only while the caller still holds it (compare-and-extend). A GET then
  EXPIRE from the client would race: the lock may expire and be taken by another node
  between the two, and the EXPIRE would then extend that node's lock.

  KEYS[1]  the lock
  ARGV[1]  the caller's token (random, chosen when it acquired the lock)
  ARGV[2]  the new time to live, milliseconds

  Returns  Flag.YES when extended; Flag.NO when the lock is gone or held by another token.
]]
--- @include "reply-codes"
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return Flag.YES
end
return Flag.NO
