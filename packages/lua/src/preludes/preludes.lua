-- The Pack prelude installer (tools.txt "Pack preludes"), run once per VM by installPreludes
-- (install.ts) through runPrivileged with
-- `(P, key, chunks, begin, check, refuse_sealed, refuse_var, store_name, traceback_field,
-- var_metatable)`:
-- - `key`: the global the rest of the install waits under when a store call must suspend;
-- - `chunks`: `{ pack, source }` (Lua text, loaded in mode `t`) or `{ pack, bytecode }` (from
--   LuaRuntime.compile, mode `b`), in install order;
-- - `begin(pack)`: a host function told which prelude the install turns to next;
-- - `check(pack, key)`: a host function that returns the refusal of one prelude global, or
--   nothing (and records the owner of the name);
-- - `refuse_sealed(global, pack, key)` and `refuse_var(path, key)`: host functions that raise the
--   read-only refusals;
-- - `store_name`: the global whose function fields become direct (install-time) versions while
--   preludes load;
-- - `traceback_field`: the private-table field that holds the traceback C function
--   (`traceback(thread)`: the `stack traceback:` text of a dead coroutine where its error was
--   raised);
-- - `var_metatable`: what getmetatable answers for `var` inside a prelude.
--
-- It swaps the store's functions for direct ones (which, inside the loading coroutine, yield the
-- call to the install, which makes it in its own thread, so the store effect goes out while
-- nothing else can suspend), then loads each prelude in a fresh coroutine with `...` = its Pack id
-- and a restricted environment, checks its globals in deterministic `pairs` order, installs them
-- (tables behind a sealed proxy), and finally puts the store's suspending functions back. It runs
-- on the main thread as far as it can: when a loading prelude makes a store call, it returns
-- `'wait'` and leaves the rest of the install at `_G[key]` for preludes-driver.lua, whose thread
-- can suspend on the call. It returns nothing on success, or
-- `'load', pack, message, is_error_value, traceback`, or `'refused', pack, message`.
--
-- Its bytecode is stripped of debug information, and every function of it that prompt or prelude
-- code can reach (the sealed tables' and var view's metamethods, the store's direct functions)
-- ends in a tail call, so no frame of it shows in a traceback. Everything it calls is captured
-- here, before any prompt code runs.
local P, key, chunks, begin, check, refuse_sealed, refuse_var, store_name, traceback_field, var_metatable =
  ...
local G = P._G
local rawget, rawset, setmetatable, type = P.rawget, P.rawset, P.setmetatable, P.type
local tostring, next, load, pcall, error = P.tostring, P.next, P.load, P.pcall, P.error
local collectgarbage = P.collectgarbage
local coroutine = P.coroutine
local create, resume, yield, running, status =
  coroutine.create, coroutine.resume, coroutine.yield, coroutine.running, coroutine.status
local tointeger = G.math.tointeger
local pack_values, unpack = G.table.pack, G.table.unpack
local sorted_pairs = rawget(G, 'pairs')
local traceback = rawget(P, traceback_field)
local errors = rawget(P, 'errors')

-- What prelude code sees besides var (tools.txt "What prelude code can see").
local SEEN = {
  'assert',
  'error',
  'getmetatable',
  'ipairs',
  'next',
  'pairs',
  'pcall',
  'select',
  'setmetatable',
  'tonumber',
  'tostring',
  'type',
  'xpcall',
  'string',
  'table',
  'math',
  'tools',
  'store',
  'untrusted',
  'json',
}

local function none() return nil end
local function empty_pairs(t) return none, t, nil end

-- var inside a prelude: a read-only view at every depth over the section's live var views.
local var_views = setmetatable({}, { __mode = 'k' })
local function child_path(path, k)
  if type(k) == 'string' then return path .. '.' .. k end
  local i = type(k) == 'number' and tointeger(k) or nil
  return path .. '[' .. tostring(i or k) .. ']'
end
local function read_only_var(view, path)
  local w = var_views[view]
  if w ~= nil then return w end
  w = setmetatable({}, {
    __index = function(_, k)
      local v = view[k]
      if type(v) == 'table' then return read_only_var(v, child_path(path, k)) end
      return v
    end,
    __newindex = function(_, k) return refuse_var(path, k) end,
    __metatable = var_metatable,
    __pairs = empty_pairs,
  })
  var_views[view] = w
  return w
end

local seen
local function seen_globals()
  if seen == nil then
    seen = {}
    for i = 1, #SEEN do
      local name = SEEN[i]
      seen[name] = G[name]
    end
    local state_var = rawget(P, 'state_var')
    if state_var ~= nil then seen.var = read_only_var(rawget(state_var, 'view'), 'var') end
  end
  return seen
end

-- A prelude table global as the section sees it: an empty proxy sealed at its top level.
local function seal(name, pack, t)
  return setmetatable({}, {
    __index = t,
    __newindex = function(_, k) return refuse_sealed(name, pack, k) end,
    __metatable = name .. ' is sealed',
    __pairs = empty_pairs,
  })
end

local function describe(e)
  local t = type(e)
  if t == 'table' and errors ~= nil and errors.is(e) then return rawget(e, 'message'), true end
  if t == 'string' then return e, false end
  if t == 'number' then return tostring(e), false end
  return '(error object is a ' .. t .. ' value)', false
end

-- The coroutine loading a prelude now; a direct store function yields only inside it.
local installing

-- Tail calls only, so no frame of this chunk shows in a traceback.
local function settle(ok, ...)
  if ok then return ... end
  return error((...), 0)
end

local function direct(fn)
  return function(...)
    if installing ~= nil and running() == installing then return settle(yield(fn, ...)) end
    return fn(...)
  end
end

local function load_chunk(chunk, env)
  local name = '=pack:' .. chunk.pack
  if chunk.source ~= nil then return load(chunk.source, name, 't', env) end
  return load(chunk.bytecode, name, 'b', env)
end

-- The install's state: the prelude loading now, its environment and coroutine, and what the
-- coroutine's last resume returned (a store call it waits for, while it is suspended).
local index, chunk, env, thread, last = 0, nil, nil, nil, nil
local store, originals

local function loaded_failure(e)
  local message, is_value = describe(e)
  last = nil
  local ok, where = pcall(traceback, thread)
  -- The dead coroutine's stack may hold what exhausted the memory: free it before going on.
  thread = nil
  collectgarbage()
  return 'load', chunk.pack, message, is_value, ok and where or ''
end

local function install_globals()
  local pack = chunk.pack
  local names, n = {}, 0
  for k in sorted_pairs(env) do
    n = n + 1
    names[n] = k
  end
  for i = 1, n do
    local refusal = check(pack, names[i])
    if refusal ~= nil then return 'refused', pack, refusal end
  end
  for i = 1, n do
    local name = names[i]
    local value = rawget(env, name)
    if type(value) == 'table' then value = seal(name, pack, value) end
    rawset(G, name, value)
  end
end

-- One step of the install: true to go on; 'wait' when the loading prelude waits for a store
-- call and this thread cannot suspend; false and the outcome when the install ends.
local function step(can_wait)
  if thread == nil then
    index = index + 1
    chunk = chunks[index]
    if chunk == nil then return false end
    begin(chunk.pack)
    env = setmetatable({}, { __index = seen_globals(), __metatable = false })
    local fn, err = load_chunk(chunk, env)
    if fn == nil then return false, 'load', chunk.pack, err, false, '' end
    thread = create(fn)
    installing = thread
    last = pack_values(resume(thread, chunk.pack))
  elseif status(thread) == 'suspended' then
    if not can_wait then return 'wait' end
    local answer = pack_values(pcall(last[2], unpack(last, 3, last.n)))
    last = pack_values(resume(thread, unpack(answer, 1, answer.n)))
  end
  if status(thread) == 'suspended' then return true end
  installing = nil
  if not last[1] then return false, loaded_failure(last[2]) end
  thread, last = nil, nil
  local kind, pack, message = install_globals()
  if kind ~= nil then return false, kind, pack, message end
  return true
end

local function finish(...)
  installing, thread, env, last = nil, nil, nil, nil
  if originals ~= nil then
    for k, fn in next, originals do
      rawset(store, k, fn)
    end
    originals = nil
  end
  return ...
end

-- Runs the install on until it ends, or until a store call must wait and this thread cannot.
local function run(can_wait)
  while true do
    local r = pack_values(pcall(step, can_wait))
    if not r[1] then
      -- The install's own code failed (memory exhausted around the loading prelude).
      installing = nil
      local message, is_value = describe(r[2])
      return finish('load', chunk and chunk.pack or '', message, is_value, '')
    end
    if r[2] == 'wait' then return 'wait' end
    if r[2] == false then return finish(unpack(r, 3, r.n)) end
  end
end

store = G[store_name]
if type(store) == 'table' then
  originals = {}
  for k, fn in next, store do
    if type(fn) == 'function' then originals[k] = fn end
  end
  for k, fn in next, originals do
    rawset(store, k, direct(fn))
  end
end

local outcome = pack_values(run(false))
if outcome[1] == 'wait' then rawset(G, key, function() return run(true) end) end
return unpack(outcome, 1, outcome.n)
