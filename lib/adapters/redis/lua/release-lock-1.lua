--[[
  Releases a lock only while the caller still holds it (compare-and-delete), so a node
  whose lock expired never deletes the lock another node took since.

  KEYS[1]  the lock
  ARGV[1]  the caller's token

  Returns  Flag.YES when deleted; Flag.NO when the lock is gone or held by another token.
]]
--- @include "reply-codes"
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
  return Flag.YES
end
return Flag.NO
