-- argv's sealed view, a part of engine.lua loaded on first use with `(kit)`: returns `seal(data)`,
-- a read-only view json.encode reads through.
local kit = ...
local P, H = kit.P, kit.H
local rawget, type, setmetatable = P.rawget, P.type, P.setmetatable
local targets, views = rawget(P, 'sealed_targets'), setmetatable({}, { __mode = 'k' })
local function none() return nil end
local function empty_pairs(t) return none, t, nil end
local function refuse() H('refuse_argv') end
local seal
seal = function(data)
  local view = views[data]
  if view ~= nil then return view end
  view = setmetatable({}, {
    __index = function(_, k)
      local v = rawget(data, k)
      if type(v) == 'table' then return seal(v) end
      return v
    end,
    __newindex = refuse,
    __pairs = empty_pairs,
    __metatable = 'argv is sealed',
  })
  views[data] = view
  targets[view] = data
  return view
end
return seal
