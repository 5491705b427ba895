-- The members of the `tasks` global (docs/design/tasks.md), loaded on the first call of one by
-- lazy-globals.lua with an empty environment and `(kit)`: the private table `P`, the host
-- function `H(op, ...)` (install-tasks.ts) and what it takes from the sandbox, captured before
-- prompt code ran. Returns the member table; `tasks` itself is the plain table lazy-globals.lua
-- installs, each of its functions passing its call on to the member of the same name.
--
-- Each function checks what only Lua can see (the argument count, the item as JSON data, the
-- options table) and hands the rest to H, whose answer is a Promise: every call suspends the
-- calling block at least once. Handles are plain tables `{ task = id }`.
local kit = ...
local P, H = kit.P, kit.H
local rawget, select, type, tostring = P.rawget, P.select, P.type, P.tostring
local encode, array = kit.encode, kit.array
local pcall, pairs, math_type, gsub = kit.pcall, kit.pairs, kit.math_type, kit.gsub

-- The type name in argument errors: Lua's, with integers and floats told apart.
local function type_name(v)
  local t = type(v)
  if t == 'number' then return math_type(v) == 'integer' and 'integer' or 'number' end
  return t
end

-- A whole number > 0 (an integral float counts), else nil.
local function positive_whole(v)
  if type(v) ~= 'number' or v ~= v or v < 1 or v == 1 / 0 then return nil end
  if math_type(v) == 'float' and v % 1 ~= 0 then return nil end
  return v
end

-- A value for a message: a number as Lua prints it, else its type.
local function value_text(v)
  if type(v) == 'number' then return tostring(v) end
  return type_name(v)
end

local function spawn(...)
  local n = select('#', ...)
  local target, item, options = ...
  if n > 3 then H('fail', 'spawn_arity') end
  local ok, text = pcall(encode, item)
  if not ok then
    local message = gsub(tostring(text), '^json%.encode: value', 'item', 1)
    H('fail_text', message)
  end
  local index
  if options ~= nil then
    if type(options) ~= 'table' then
      H('fail_text', 'tasks.spawn: options must be a table, got ' .. type_name(options))
    end
    for k, v in pairs(options) do
      if k ~= 'index' then H('fail_text', 'tasks.spawn: unknown option ' .. tostring(k)) end
      index = positive_whole(v)
      if index == nil then
        H('fail_text', 'tasks.spawn: index must be a positive whole number, got ' .. value_text(v))
      end
    end
  end
  return H('spawn', target, text, index)
end

-- The ids of a list of handles, checked for `fn`.
local function ids_of(fn, handles)
  if type(handles) ~= 'table' then
    H('fail_text', fn .. ' takes a list of task handles, got ' .. type_name(handles))
  end
  if rawget(handles, 'task') ~= nil then
    H('fail_text', fn .. ' takes a list of task handles; wrap a single handle as { handle }')
  end
  local ids, seen = {}, {}
  for i, h in pairs(handles) do
    if type(i) ~= 'number' then
      H(
        'fail_text',
        fn .. ' takes a list of task handles, got a table with a ' .. type_name(i) .. ' key'
      )
    end
    local id = type(h) == 'table' and h.task or nil
    if type(id) ~= 'string' then
      H(
        'fail_text',
        fn .. ': entry ' .. tostring(i) .. ' is not a task handle, got ' .. type_name(h)
      )
    end
    if seen[id] then H('fail_text', fn .. ': task ' .. id .. ' is listed twice') end
    seen[id] = true
    ids[#ids + 1] = id
  end
  return ids
end

local function join(...)
  if select('#', ...) ~= 1 then H('fail', 'join_arity') end
  return array(H('join', ids_of('tasks.join', (...))))
end

local function join_any(...)
  if select('#', ...) ~= 1 then H('fail', 'join_any_arity') end
  local ids = ids_of('tasks.join_any', (...))
  if #ids == 0 then H('fail', 'join_any_empty') end
  return H('join_any', ids)
end

local function cancel(...)
  if select('#', ...) ~= 1 then H('fail', 'cancel_arity') end
  local handles = ...
  if type(handles) ~= 'table' then
    H('fail_text', 'tasks.cancel takes a task handle or a list of them, got ' .. type_name(handles))
  end
  local single = rawget(handles, 'task')
  if single ~= nil then
    if type(single) ~= 'string' then
      H('fail_text', 'tasks.cancel takes a task handle or a list of them, got table')
    end
    return H('cancel', { single })
  end
  return H('cancel', ids_of('tasks.cancel', handles))
end

local function concurrency(...)
  local n = select('#', ...)
  if n > 1 then H('fail', 'concurrency_arity') end
  local v = ...
  if v == nil then return H('concurrency') end
  if positive_whole(v) == nil then
    H('fail_text', 'tasks.concurrency takes a positive whole number, got ' .. value_text(v))
  end
  return H('concurrency', v)
end

local function note(...)
  if select('#', ...) ~= 1 then H('fail', 'note_arity') end
  local text = ...
  if type(text) ~= 'string' then
    H('fail_text', 'text must be a string, got ' .. type_name(text))
  end
  return H('note', text)
end

return {
  spawn = spawn,
  join = join,
  join_any = join_any,
  cancel = cancel,
  concurrency = concurrency,
  note = note,
}
