--[[
  Releases a lock only while the caller still holds it (compare-and-delete), so a node
  whose lock expired never deletes the lock another node took since.

  KEYS[1]  the lock
  ARGV[1]  the caller's token

  Returns  1 when deleted; 0 when the lock is gone or held by another token.
]]
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
