-- The name of a block's own field in a tenant's counter hash (issue-numbers-n.lua): its day,
-- shift and bounds, so a stale hint never matches another day's or shift's block; nil for
-- no block (max 0).
local function blockField(day, shift, lo, max)
  if tonumber(max) > 0 then
    return day .. ':' .. shift .. ':' .. lo .. ':' .. max
  end
  return nil
end
