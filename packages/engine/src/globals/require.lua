-- `require` (docs/design/require.md), a part of engine.lua loaded on first use with `(kit)`:
-- returns `require(target)`.
local kit = ...
local P, H, G = kit.P, kit.H, kit.G
local setmetatable, load = P.setmetatable, P.load
local loaded, loading = {}, {}
return function(target)
  local key, blocks = H('lookup', target)
  local cached = loaded[key]
  if cached ~= nil then return cached end
  if loading[key] then H('cycle', key) end
  loading[key] = true
  H('started', key)
  local done = false
  local guard_close <close> = setmetatable({}, {
    __close = function()
      loading[key] = nil
      if not done then H('finished', key, false) end
    end,
  })
  local result
  for i = 1, #blocks do
    local r = load(blocks[i], '=library', 'b', G)()
    if r ~= nil then
      result = r
      break
    end
  end
  if result == nil then result = true end
  loaded[key] = result
  done = true
  H('finished', key, true)
  return result
end
