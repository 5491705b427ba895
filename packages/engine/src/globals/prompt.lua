-- The core of the `prompt` global (docs/design/prompt-reads.md), run once per VM at setup step 5
-- by installPromptReads (prompt-reads.ts) through runPrivileged with `(P, H, sealed_text)`: the
-- private table, the host function `H(op, ...)` and the text `getmetatable(prompt)` returns.
--
-- It stays small: it captures what the reads need before any prompt code runs (json.array,
-- json.encode, json.null, table.concat, math.type) and installs `prompt` as a sealed, empty table.
-- Its `__index` is a function (so json.encode and var cannot read through it) that loads the
-- implementation (prompt-reads.lua) on the first member read; a section that never reads a
-- section pays only for the core.
local P, H, sealed_text = ...
local G = P._G
local rawget, rawset = P.rawget, P.rawset
local json = rawget(G, 'json')
local kit = {
  P = P,
  H = H,
  G = G,
  concat = rawget(G, 'table').concat,
  math_type = rawget(G, 'math').type,
  array = json.array,
  encode = json.encode,
  null = json.null,
}
local members
local prompt = P.setmetatable({}, {
  __index = function(_, k)
    -- A binary chunk keeps the name it was compiled under, runvil/prompt-reads.lua.
    if members == nil then members = P.load(H('code', 'reads'), '=prompt-reads', 'b', {})(kit) end
    return members[k]
  end,
  __newindex = function(_, k) H('fail', 'read_only', k) end,
  __metatable = sealed_text,
})
local targets = rawget(P, 'sealed_targets')
if targets ~= nil then rawset(targets, prompt, false) end
rawset(G, 'prompt', prompt)
