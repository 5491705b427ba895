-- tasks.fanout (docs/design/fanout.md), loaded by lazy-areas.lua (docs/design/lazy-globals.md)
-- on the first call of `tasks.fanout`, with an empty environment and `(kit)`: the private table
-- `P`, the host function `H(op, ...)` (fanout/install-fanout.ts), the `__metatable` text of the
-- result views as `label`, and what it takes from the sandbox, captured before prompt code ran.
-- Returns the function; `tasks.fanout` itself passes its call on to it.
--
-- Lua checks what only Lua can see (the argument count, the collection's keys and members, the
-- sealed views it reads through) and builds the sealed result views; H resolves the target,
-- refuses with the texts of fanout-messages.ts, and runs the arms (`H('run', ...)` suspends).
local kit = ...
local P, H, label = kit.P, kit.H, kit.label
local rawget, select, type, tostring = P.rawget, P.select, P.type, P.tostring
local setmetatable, getmetatable, raw_next, ipairs =
  P.setmetatable, P.getmetatable, P.next, P.ipairs
local pcall = kit.pcall
-- The deterministic next (the iteration area's): keys in the fixed order, __pairs ignored.
local next = kit.next
local encode, decode, array = kit.encode, kit.decode, kit.array
local gsub, match, find = kit.gsub, kit.match, kit.find
local math_type, huge = kit.math_type, kit.huge
local targets = rawget(P, 'sealed_targets')

local function type_name(v)
  local t = type(v)
  if t == 'number' then return math_type(v) == 'integer' and 'integer' or 'number' end
  return t
end

-- The path step of a key, as json.encode writes one: `.name`, `[2]`, `[true]`.
local function step(k)
  if type(k) == 'string' then return '.' .. k end
  return '[' .. tostring(k) .. ']'
end

-- A key's text in a read-only refusal (never a table's address).
local function key_text(k)
  local t = type(k)
  if t == 'string' or t == 'number' or t == 'boolean' then return tostring(k) end
  return t
end

-- Refuses a key whose order is not fixed (the trailing group of the deterministic order).
local function check_key(k)
  local t = type(k)
  if t == 'number' then
    if k == huge or k == -huge then H('fail', 'key', 'infinite number') end
  elseif t == 'string' then
    if find(k, '[\128-\255]') and not pcall(encode, k) then H('fail', 'key', 'non-UTF-8 string') end
  elseif t ~= 'boolean' then
    H('fail', 'key', t)
  end
end

-- json.encode's refusal of `value` rewritten for the collection: `collection{path} ...`.
local function refusal(message, path)
  return (gsub(tostring(message), '^json%.encode: value', function() return path end, 1))
end

-- The table holding the members: the collection itself, or the data of a sealed view, read
-- through as json.encode reads it.
local function members_table(collection)
  if
    targets[collection] == nil and (getmetatable(collection) == nil or raw_next(collection) ~= nil)
  then
    return collection
  end
  local ok, text = pcall(encode, collection)
  if ok then return decode(text) end
  local why = match(tostring(text), '^json%.encode: value cannot be read (%b())')
  if why ~= nil or find(tostring(text), '^json%.encode: value cannot be read;') then
    H('fail', 'unreadable', why and why:sub(2, -2))
  end
  H('fail_text', refusal(text, 'collection'))
end

local function readonly(_, k) H('fail', 'readonly', key_text(k)) end

local function entry_text(v)
  local data = targets[v]
  if type(data) ~= 'table' then return '' end
  return rawget(data, 'text')
end

-- What getmetatable(entry) returns: a protected table holding the entries' __tostring, so
-- table.concat joins their texts.
local shown = setmetatable({ __tostring = entry_text }, {
  __newindex = readonly,
  __metatable = label,
})

local function entry_pairs(v) return next, targets[v], nil end

local function entry_view(data)
  local view = setmetatable({}, {
    __index = data,
    __newindex = readonly,
    __pairs = entry_pairs,
    __tostring = entry_text,
    __metatable = shown,
  })
  targets[view] = data
  return view
end

local function results_view(items, n)
  local view = setmetatable({}, {
    __index = items,
    __newindex = readonly,
    __len = function() return n end,
    __pairs = function() return ipairs(items) end,
    __metatable = label,
  })
  targets[view] = items
  return view
end

local function fanout(...)
  if select('#', ...) > 2 then H('fail', 'arity') end
  local target, collection = ...
  H('check', target)
  if type(collection) ~= 'table' then H('fail', 'collection', type_name(collection)) end
  local data = members_table(collection)
  local count = 0
  for _ in raw_next, data do
    count = count + 1
  end
  H('count', count)
  local members, n = {}, 0
  local k, v = next(data)
  while k ~= nil do
    check_key(k)
    local ok, text = pcall(encode, v)
    if not ok then H('fail_text', refusal(text, 'collection' .. step(k))) end
    n = n + 1
    members[n] = text
    k, v = next(data, k)
  end
  local outcomes = H('run', target, members)
  local items = {}
  for i = 1, n do
    local o = outcomes[i]
    items[i] = entry_view({
      ok = o.ok,
      text = o.text,
      item = decode(members[i]),
      exhausted = o.exhausted,
    })
  end
  return results_view(array(items), n)
end

return fanout
