-- The core of the `messages` global (docs/design/messages.md), run once per section VM by
-- installMessages (install-messages.ts) through runPrivileged with `(P, H)`: the private table
-- and the host function `H(op, ...)`.
--
-- It stays small: it captures what the implementation needs before prompt code can touch it
-- (json.encode/decode/array, the Engine's pcall, the deterministic pairs, math.type and
-- math.tointeger), has the `_G` guard serve `messages` (every read gives the list, every
-- assignment raises the refusal), and keeps the kit in the private table as `messages_kit`. The
-- implementation (messages-impl.lua) loads on the first read of `messages`.
--
-- Later Engine Lua (the model loop) uses `messages_kit.lib()`: `stage(list, what)` hands a Lua
-- list of records to the host one element at a time (the host checks it whole), `copy()` makes
-- the plain copy a compactor receives, and `list` is the userdata itself.
local P, H = ...
local G = P._G
local rawget, rawset = P.rawget, P.rawset
local json, math = rawget(G, 'json'), rawget(G, 'math')
local kit = {
  P = P,
  H = H,
  math_type = math.type,
  tointeger = math.tointeger,
  pcall = rawget(G, 'pcall'),
  pairs = rawget(G, 'pairs'),
  encode = json.encode,
  decode = json.decode,
  array = json.array,
}
local function lib()
  local t = kit.impl
  if t == nil then
    local code, texts = H('code')
    kit.texts = texts
    -- A binary chunk keeps the name it was compiled under, runvil/messages-impl.lua.
    t = P.load(code, '=messages-impl', 'b', {})(kit)
    kit.impl = t
  end
  return t
end
kit.lib = lib
rawget(P, 'global_guard').serve(
  'messages',
  function() return lib().list end,
  function() H('assign') end
)
rawset(P, 'messages_kit', kit)
