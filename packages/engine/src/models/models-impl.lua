-- The implementation of the `models` members and the model handles, loaded by models.lua on the
-- first member read, with an empty environment and `(kit)`: everything it uses comes from the
-- kit (`kit.texts` holds the texts and names install-models.ts hands over with the bytecode).
--
-- One frozen userdata handle per role per VM, built on first use, so
-- `models.get('writer') == models.get('writer')`. Every check of a call's shape that Lua alone
-- can see (a handle method called with a dot) is here; the host checks the arguments.
local kit = ...
local P, H, texts, extra = kit.P, kit.H, kit.texts, kit.extra
local type, select, setmetatable = P.type, P.select, P.setmetatable
local math_type = kit.math_type
local new_userdata = P.rawget(P, texts.new_userdata_field)

local function tname(v)
  local t = type(v)
  if t == 'number' then
    if math_type(v) == 'integer' then return 'integer' end
    return 'number'
  end
  return t
end

local function fail(what, ...) H('fail', what, ...) end

local label_of, model_of, handles = {}, {}, {}

local function infer(...)
  local self = ...
  local label = label_of[self]
  if label == nil then fail('handle_colon', 'infer') end
  return H('handle_infer', label, select(2, ...))
end

local function loop(...)
  local self = ...
  local label = label_of[self]
  if label == nil then fail('handle_colon', 'loop') end
  if select('#', ...) > 2 then fail('handle_arity', 'loop') end
  return extra.handle_loop(label, select(2, ...))
end

local handle_meta = {
  __index = function(u, k)
    if k == 'name' then return label_of[u] end
    if k == 'model' then return model_of[u] end
    if k == 'infer' then return infer end
    if k == 'loop' and extra.handle_loop ~= nil then return loop end
    return nil
  end,
  __newindex = function(_, k) fail('handle_frozen', k) end,
  __tostring = function(u) return texts.handle_prefix .. label_of[u] end,
  __metatable = texts.handle_meta,
}

local function handle(label)
  local h = handles[label]
  if h ~= nil then return h end
  local declared, model = H('role', label)
  if not declared then return nil end
  h = new_userdata(handle_meta)
  label_of[h], model_of[h] = label, model
  handles[label] = h
  return h
end

local lib = { handle = handle }

local members = {
  use = function(...) H('use', ...) end,
  default = function(...) H('default', ...) end,
  get = function(...)
    local label = ...
    if type(label) ~= 'string' then fail('get_type', tname(label)) end
    return handle(label)
  end,
  infer = function(...) return H('infer', ...) end,
}
-- The loop's members (setup step 7) read through `extra`, so they appear once registered.
lib.members = setmetatable(members, { __index = extra })

return lib
