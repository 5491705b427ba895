-- The core of the `tools` and `packs` globals (docs/design/tools-globals.md), run once per section
-- VM by installTools (install-tools.ts) through runPrivileged with
-- `(P, H, tools_metatable, packs_metatable)`: the private table, the host function `H(op, ...)`,
-- and what getmetatable answers for `tools` and for `packs`.
--
-- It stays small: it captures what the implementation needs before prompt code can touch it
-- (json.encode/decode, the Engine's pcall, the deterministic pairs, math.type, string.byte), and
-- installs `tools` and `packs` as sealed, empty tables. The implementation (tools-impl.lua) loads
-- on the first read of any member and then points both tables' `__index` at its member tables, so
-- a section that never touches a tool pays only for the core, and later member reads cost one
-- table lookup.
--
-- The private table's `tools_kit` holds the captured values and `lib()`, which returns the
-- implementation table: later Engine Lua (the model loop) calls `lib().call_local(...)` and
-- `lib().local_handler(alias)` from there.
local P, H, tools_metatable, packs_metatable = ...
local G = P._G
local rawget, rawset = P.rawget, P.rawset
local json = rawget(G, 'json')
local kit = {
  P = P,
  H = H,
  math_type = rawget(G, 'math').type,
  byte = rawget(G, 'string').byte,
  pairs = rawget(G, 'pairs'),
  pcall = rawget(G, 'pcall'),
  encode = json.encode,
  decode = json.decode,
}
local function lib()
  local t = kit.impl
  if t == nil then
    local code, texts = H('code')
    kit.texts = texts
    -- A binary chunk keeps the name it was compiled under, runvil/tools-impl.lua.
    t = P.load(code, '=tools-impl', 'b', {})(kit)
    kit.impl = t
  end
  return t
end
kit.lib = lib
-- Until the implementation loads, a member read loads it; it then points __index at its tables.
local tools_meta = {
  __index = function(_, k) return lib().tool_members[k] end,
  __newindex = function(_, k) H('fail', 'tools_read_only', k) end,
  __metatable = tools_metatable,
}
local packs_meta = {
  __index = function(_, k) return lib().pack_members[k] end,
  __newindex = function(_, k) H('fail', 'packs_read_only', k) end,
  __metatable = packs_metatable,
}
kit.tools_meta, kit.packs_meta = tools_meta, packs_meta
local setmetatable = P.setmetatable
local tools, packs = setmetatable({}, tools_meta), setmetatable({}, packs_meta)
local targets = rawget(P, 'sealed_targets')
if targets ~= nil then
  rawset(targets, tools, false)
  rawset(targets, packs, false)
end
kit.tools, kit.packs = tools, packs
rawset(G, 'tools', tools)
rawset(G, 'packs', packs)
rawset(P, 'tools_kit', kit)
