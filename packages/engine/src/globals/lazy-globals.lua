-- Setup step 6's `tools` and `packs` (tools.lua) and the Engine globals most sections never
-- touch (docs/design/lazy-globals.md): `prompt` (step 5), `models`, `messages` and `tasks`
-- (step 6), and `compactors` with the loop's members of `models` (step 7). Run once per section
-- VM by installLazyGlobals (lazy-globals.ts) through runPrivileged with `(P, A, prompt_text,
-- models_text, compactors_text, tools_code, tools_H, tools_text, packs_text)`: the private table,
-- the host function `A(what)` (`A('code')` gives lazy-areas.lua's bytecode, `A(area)` an area's
-- own host function), what getmetatable answers for `prompt`, `models` and `compactors`, and the
-- tools core with the arguments installTools gives it.
--
-- Every section pays for this chunk, so it makes only what must exist before prompt code runs:
-- the values the areas' Lua takes from the sandbox (captured now, so a block that reassigns
-- `next` or edits `math` changes nothing for them; the tools kit holds the rest), `prompt`,
-- `models` and `compactors` as sealed, empty tables, `tasks` as the plain table of its seven
-- functions, and the `_G` guard serving `messages`. Every function it makes is one closure of
-- `on(i)`: the first call of any loads lazy-areas.lua, whose i-th function does the work.
local P, A, prompt_text, models_text, compactors_text, tools_code, tools_H, tools_text, packs_text =
  ...
local G = P._G
local rawget, rawset, setmetatable, load = P.rawget, P.rawset, P.setmetatable, P.load
-- A binary chunk keeps the name it was compiled under, runvil/tools.lua.
load(tools_code, '=tools', 'b', {})(P, tools_H, tools_text, packs_text)
local math, json, string = rawget(G, 'math'), rawget(G, 'json'), rawget(G, 'string')
local tointeger, huge, array, null = math.tointeger, math.huge, json.array, json.null
local concat, gsub, match, find = rawget(G, 'table').concat, string.gsub, string.match, string.find
local next = rawget(G, 'next')
local prompt_meta = { __metatable = prompt_text }
local models_meta = { __metatable = models_text }
local compactors_meta = { __metatable = compactors_text }
local prompt = setmetatable({}, prompt_meta)
local models = setmetatable({}, models_meta)
local compactors = setmetatable({}, compactors_meta)
local areas
local function on(i)
  return function(...)
    local t = areas
    if t == nil then
      -- A binary chunk keeps the name it was compiled under, runvil/lazy-areas.lua.
      t = load(A('code'), '=lazy-areas', 'b', {})(
        P,
        A,
        tointeger,
        array,
        null,
        concat,
        gsub,
        match,
        find,
        huge,
        next,
        prompt,
        prompt_meta,
        models,
        models_meta,
        compactors_meta
      )
      areas = t
    end
    return t[i](...)
  end
end
local index, newindex = on(1), on(2)
prompt_meta.__index, prompt_meta.__newindex = index, newindex
models_meta.__index, models_meta.__newindex = index, newindex
compactors_meta.__index, compactors_meta.__newindex = index, newindex
local targets = rawget(P, 'sealed_targets')
rawset(targets, prompt, false)
rawset(targets, models, false)
rawset(targets, compactors, false)
rawget(P, 'global_guard').serve('messages', on(3), on(4))
rawset(G, 'prompt', prompt)
rawset(G, 'models', models)
rawset(G, 'tasks', {
  spawn = on(5),
  join = on(6),
  join_any = on(7),
  cancel = on(8),
  concurrency = on(9),
  note = on(10),
  fanout = on(11),
})
rawset(G, 'compactors', compactors)
