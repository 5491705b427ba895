-- The areas behind the lazy globals (docs/design/lazy-globals.md), loaded by lazy-globals.lua on
-- the first use of `prompt`, `models`, `messages`, `tasks` or `compactors`, with an empty
-- environment and `(P, A, tointeger, array, null, concat, gsub, match, find, huge, next, prompt,
-- prompt_meta, models, models_meta, compactors_meta)`: the private table, `A(area)`, the sandbox values lazy-globals.lua
-- captured (the tools kit holds the others), and the sealed tables' tables and metatables.
-- Returns the ten functions lazy-globals.lua's closures call, by position: the sealed tables'
-- `__index` and `__newindex` (until an implementation takes over), the guard's read and assign
-- handlers for `messages`, and the seven members of `tasks`.
--
-- Each area gets the kit its own core built before (the same fields, so its implementation is
-- unchanged) and its host function from `A(area)`, both when the area is first used; its
-- implementation loads on its first member read.
local P, A, tointeger, array, null, concat, gsub, match, find, huge, next, prompt_table, prompt_meta, models_table, models_meta, compactors_meta =
  ...
local load, rawget = P.load, P.rawget
local G = P._G
-- What tools.lua captured before prompt code ran.
local tools_kit = rawget(P, 'tools_kit')
local pcall, pairs, math_type = tools_kit.pcall, tools_kit.pairs, tools_kit.math_type
local encode, decode = tools_kit.encode, tools_kit.decode

-- messages (docs/design/messages.md)
local messages_kit
local function messages()
  local m = messages_kit
  if m == nil then
    m = {
      P = P,
      H = A('messages'),
      math_type = math_type,
      tointeger = tointeger,
      pcall = pcall,
      pairs = pairs,
      encode = encode,
      decode = decode,
      array = array,
    }
    m.lib = function()
      local t = m.impl
      if t == nil then
        local code, texts = m.H('code')
        m.texts = texts
        -- A binary chunk keeps the name it was compiled under, runvil/messages-impl.lua.
        t = load(code, '=messages-impl', 'b', {})(m)
        m.impl = t
      end
      return t
    end
    messages_kit = m
  end
  return m
end

-- The loop (docs/design/loop.md §12) and the compactors (compactors.md)
local loop_kit
local function loop()
  local l = loop_kit
  if l == nil then
    local H, C = A('loop')
    l = {
      P = P,
      H = H,
      C = C,
      math_type = math_type,
      pairs = pairs,
      pcall = pcall,
      tools_kit = tools_kit,
      messages_kit = messages(),
    }
    loop_kit = l
  end
  return l
end

local function driver()
  local l = loop()
  local t = l.driver
  if t == nil then
    local code, texts = l.H('code')
    l.loop_texts = texts
    -- A binary chunk keeps the name it was compiled under, runvil/loop-impl.lua.
    t = load(code, '=loop-impl', 'b', {})(l)
    l.driver = t
  end
  return t
end

local function compactor_members()
  local l = loop()
  local t = l.compactors
  if t == nil then
    local code, texts = l.C('code')
    l.compactor_texts = texts
    -- A binary chunk keeps the name it was compiled under, runvil/compactors-impl.lua.
    t = load(code, '=compactors-impl', 'b', {})(l)
    l.compactors = t
    compactors_meta.__index = t
  end
  return t
end

-- models (docs/design/models.md §6–8): `extra` holds the loop's members from the start, as the
-- loop's core (setup step 7) always plugged them in before prompt code ran.
local models_kit
local function models()
  local m = models_kit
  if m == nil then
    m = {
      P = P,
      H = A('models'),
      extra = {
        loop = function(...) return driver().loop(...) end,
        compact = function(...) return driver().compact(...) end,
        handle_loop = function(label, ...) return driver().handle_loop(label, ...) end,
      },
      math_type = math_type,
    }
    m.lib = function()
      local t = m.impl
      if t == nil then
        local code, texts = m.H('code')
        m.texts = texts
        -- A binary chunk keeps the name it was compiled under, runvil/models-impl.lua.
        t = load(code, '=models-impl', 'b', {})(m)
        m.impl = t
        models_meta.__index = t.members
      end
      return t
    end
    models_kit = m
  end
  return m
end

-- prompt (docs/design/prompt-reads.md): its `__index` stays a function, so json.encode and var
-- cannot read through it.
local prompt_H
local function prompt_host()
  local H = prompt_H
  if H == nil then
    H = A('prompt')
    prompt_H = H
  end
  return H
end
local function prompt_members()
  local H = prompt_host()
  local reads = {
    P = P,
    H = H,
    G = G,
    concat = concat,
    math_type = math_type,
    array = array,
    encode = encode,
    null = null,
  }
  -- A binary chunk keeps the name it was compiled under, runvil/prompt-reads.lua.
  local t = load(H('code', 'reads'), '=prompt-reads', 'b', {})(reads)
  prompt_meta.__index = function(_, k) return t[k] end
  return t
end

-- tasks (docs/design/tasks.md)
local tasks_members
local function tasks()
  local t = tasks_members
  if t == nil then
    local H = A('tasks')
    local task_kit = {
      P = P,
      H = H,
      encode = encode,
      array = array,
      pcall = pcall,
      pairs = pairs,
      math_type = math_type,
      gsub = gsub,
    }
    -- A binary chunk keeps the name it was compiled under, runvil/tasks.lua.
    t = load(H('code'), '=tasks', 'b', {})(task_kit)
    tasks_members = t
  end
  return t
end

-- tasks.fanout (docs/design/fanout.md)
local fanout_fn
local function fanout()
  local f = fanout_fn
  if f == nil then
    local H = A('fanout')
    local code, label = H('code')
    local fanout_kit = {
      P = P,
      H = H,
      label = label,
      pcall = pcall,
      next = next,
      encode = encode,
      decode = decode,
      array = array,
      gsub = gsub,
      match = match,
      find = find,
      math_type = math_type,
      huge = huge,
    }
    -- A binary chunk keeps the name it was compiled under, runvil/fanout.lua.
    f = load(code, '=fanout', 'b', {})(fanout_kit)
    fanout_fn = f
  end
  return f
end

-- A task member: the same function of tasks.lua.
local function task(name)
  return function(...) return tasks()[name](...) end
end

return {
  function(t, k)
    if t == models_table then return models().lib().members[k] end
    if t == prompt_table then return prompt_members()[k] end
    return compactor_members()[k]
  end,
  function(t, k)
    if t == models_table then
      models().H('fail', 'read_only', k)
    elseif t == prompt_table then
      prompt_host()('fail', 'read_only', k)
    else
      loop().C('fail', 'read_only', k)
    end
  end,
  function() return messages().lib().list end,
  function() messages().H('assign') end,
  task('spawn'),
  task('join'),
  task('join_any'),
  task('cancel'),
  task('concurrency'),
  task('note'),
  function(...) return fanout()(...) end,
}
