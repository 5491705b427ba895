-- The core of the `models` global (docs/design/models.md §6–8), run once per section VM (setup
-- step 6) by installModels (install-models.ts) through runPrivileged with `(P, H, sealed_text)`:
-- the private table, the host function `H(op, ...)`, and what getmetatable answers for `models`.
--
-- It stays small: it installs `models` as a sealed, empty table whose member reads load the
-- implementation (models-impl.lua) and then index its member table directly, and keeps the kit
-- in the private table as `models_kit`.
--
-- The model loop (setup step 7) plugs in through `models_kit.extra`: `extra.loop` and
-- `extra.compact` become the members `models.loop` and `models.compact`, and
-- `extra.handle_loop(label, ...)` serves `handle:loop(...)` once the handle and the call shape are
-- checked (`handle:loop must be called on a model handle …`, `handle:loop takes (compactor?)`).
-- Until then those names read nil. `models_kit.lib().handle(label)` gives a role's handle.
local P, H, sealed_text = ...
local G = P._G
local rawget, rawset, setmetatable = P.rawget, P.rawset, P.setmetatable
local kit = {
  P = P,
  H = H,
  extra = {},
  math_type = rawget(G, 'math').type,
}
local meta
local function lib()
  local t = kit.impl
  if t == nil then
    local code, texts = H('code')
    kit.texts = texts
    -- A binary chunk keeps the name it was compiled under, runvil/models-impl.lua.
    t = P.load(code, '=models-impl', 'b', {})(kit)
    kit.impl = t
    meta.__index = t.members
  end
  return t
end
kit.lib = lib
meta = {
  __index = function(_, k) return lib().members[k] end,
  __newindex = function(_, k) H('fail', 'read_only', k) end,
  __metatable = sealed_text,
}
local models = setmetatable({}, meta)
local targets = rawget(P, 'sealed_targets')
if targets ~= nil then rawset(targets, models, false) end
rawset(G, 'models', models)
rawset(P, 'models_kit', kit)
