-- The deterministic `pairs` (lua-environment.txt, "Deterministic table iteration"), run once per
-- VM by installIteration (iteration-lua.ts) with `(P, order_key)`: the private table, and the
-- private-table field that hands over the order C function (taken and removed here).
--
-- `order(t)` answers `keys, n, border` for a table without `__pairs` (its hash-part keys in the
-- deterministic order, their count, and the array part's border), `false, mm` when `t` has a
-- `__pairs` metafield, and nothing for another value.
--
-- The iterator walks 1..border by index, then the key list, reading each value raw when it gets
-- there and skipping keys that read nil, so cleared keys are skipped, new keys are not visited and
-- values are read live. It keeps its own position and ignores its arguments.
local P, order_key = ...
local order = P[order_key]
P[order_key] = nil
local rawget, rawset, type, error, select = P.rawget, P.rawset, P.type, P.error, P.select

local function pairs(...)
  local t = ...
  local keys, n, border = order(t)
  if keys then
    local i, j = 0, 0
    local function step()
      while i < border do
        i = i + 1
        local v = rawget(t, i)
        if v ~= nil then return i, v end
      end
      while j < n do
        j = j + 1
        local k = keys[j]
        local v = rawget(t, k)
        if v ~= nil then return k, v end
      end
      return nil, nil
    end
    return step, t, nil
  end
  if keys == false then
    if type(n) == 'function' then return n(t) end
    error('attempt to call a ' .. type(n) .. " value (metamethod '__pairs')", 0)
  end
  local got = select('#', ...) == 0 and 'no value' or type(t)
  error("bad argument #1 to 'pairs' (table expected, got " .. got .. ')', 2)
end

rawset(_ENV, 'pairs', pairs)
