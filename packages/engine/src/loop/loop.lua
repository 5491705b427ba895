-- Setup step 7 (docs/design/loop.md §12, compactors.md): `models.loop`, `handle:loop`,
-- `models.compact` and the `compactors` global, run once per section VM by installLoop
-- (install-loop.ts) through runPrivileged with `(P, H, C, compactors_metatable)`: the private
-- table, the loop's host function `H(op, ...)`, the compactors' host function `C(op, ...)`, and
-- what getmetatable answers for `compactors`.
--
-- It stays small: it plugs the three loop members into the models kit (models-lua.ts reads them
-- through `models_kit.extra`) and installs `compactors` as a sealed, empty table. The driver
-- (loop-impl.lua) loads on the first loop or compaction, the built-in compactors
-- (compactors-impl.lua) on the first read of a `compactors` member; both get the kit this file
-- builds, which captures what they need before prompt code runs.
local P, H, C, compactors_metatable = ...
local G = P._G
local rawget, rawset, setmetatable = P.rawget, P.rawset, P.setmetatable
local kit = {
  P = P,
  H = H,
  C = C,
  math_type = rawget(G, 'math').type,
  pairs = rawget(G, 'pairs'),
  pcall = rawget(G, 'pcall'),
  tools_kit = rawget(P, 'tools_kit'),
  messages_kit = rawget(P, 'messages_kit'),
}

local function driver()
  local t = kit.driver
  if t == nil then
    local code, texts = H('code')
    kit.loop_texts = texts
    -- A binary chunk keeps the name it was compiled under, runvil/loop-impl.lua.
    t = P.load(code, '=loop-impl', 'b', {})(kit)
    kit.driver = t
  end
  return t
end
kit.driver_lib = driver

local extra = rawget(P, 'models_kit').extra
extra.loop = function(...) return driver().loop(...) end
extra.compact = function(...) return driver().compact(...) end
extra.handle_loop = function(label, ...) return driver().handle_loop(label, ...) end

local compactors_meta
local function members()
  local t = kit.compactors
  if t == nil then
    local code, texts = C('code')
    kit.compactor_texts = texts
    t = P.load(code, '=compactors-impl', 'b', {})(kit)
    kit.compactors = t
    compactors_meta.__index = t
  end
  return t
end
compactors_meta = {
  __index = function(_, k) return members()[k] end,
  __newindex = function(_, k) C('fail', 'read_only', k) end,
  __metatable = compactors_metatable,
}
local compactors = setmetatable({}, compactors_meta)
local targets = rawget(P, 'sealed_targets')
if targets ~= nil then rawset(targets, compactors, false) end
rawset(G, 'compactors', compactors)
