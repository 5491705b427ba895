-- The implementation of the `messages` global, loaded by messages.lua on the first read of
-- `messages`, with an empty environment and `(kit)`: everything it uses comes from the kit
-- (`kit.texts` holds the texts and names install-messages.ts hands over with the bytecode).
--
-- The list userdata, the record views (one per record object, cached by the record's serial with
-- weak values, so `messages[1] == messages[1]` holds while a view lives), and the methods.
local kit = ...
local P, H, texts = kit.P, kit.H, kit.texts
local type, select, setmetatable = P.type, P.select, P.setmetatable
local math_type, tointeger, pcall, pairs = kit.math_type, kit.tointeger, kit.pcall, kit.pairs
local encode, decode, array = kit.encode, kit.decode, kit.array
local new_userdata = P.rawget(P, texts.new_userdata_field)

local function tname(v)
  local t = type(v)
  if t == 'number' then
    if math_type(v) == 'integer' then return 'integer' end
    return 'number'
  end
  return t
end

local function fail(what, ...) H('fail', what, ...) end

-- Record views: the record's fields, copied once; tool_calls decoded afresh on every read.
local view_data = setmetatable({}, { __mode = 'k' })
local views = setmetatable({}, { __mode = 'v' })
local FIELDS = { 'role', 'content', 'tool_calls', 'tool_call_id', 'name' }
local PLACE = { role = 1, content = 2, tool_calls = 3, tool_call_id = 4, name = 5 }

local function field(d, k)
  if k == 'tool_calls' then
    local calls = d.calls
    if calls ~= nil then return decode(calls) end
    return nil
  end
  if PLACE[k] ~= nil then return d[k] end
  return nil
end

local function record_next(u, k)
  local d = view_data[u]
  local at = 0
  if k ~= nil then at = PLACE[k] or 5 end
  for i = at + 1, 5 do
    local name = FIELDS[i]
    local v = field(d, name)
    if v ~= nil then return name, v end
  end
  return nil
end

local record_meta = {
  __index = function(u, k) return field(view_data[u], k) end,
  __newindex = function(_, k) fail('record_frozen', k) end,
  __pairs = function(u) return record_next, u, nil end,
  __tostring = function(u) return view_data[u].content end,
  __metatable = texts.record_meta,
}

local function record_at(i)
  local serial = H('serial', i)
  if serial == nil then return nil end
  local v = views[serial]
  if v ~= nil then return v end
  local role, content, calls, call_id, name = H('record', i)
  v = new_userdata(record_meta)
  view_data[v] =
    { role = role, content = content, calls = calls, tool_call_id = call_id, name = name }
  views[serial] = v
  return v
end

local lib = {}
local list
local methods = {}

local function colon(self, method)
  if self ~= list then fail('colon', method) end
end

local function appender(method)
  return function(...)
    colon((...), method)
    if select('#', ...) ~= 2 then fail('arity', method) end
    H('append', method, (select(2, ...)))
  end
end
methods.user = appender('user')
methods.assistant = appender('assistant')
methods.system = appender('system')

-- A fresh plain list of plain record tables: JSON data (tool_calls a marked list).
local function copy()
  local rows = H('copy')
  for i = 1, #rows do
    local row = rows[i]
    local calls = row.tool_calls
    if calls ~= nil then row.tool_calls = decode(calls) end
  end
  return array(rows)
end
lib.copy = copy

function methods.copy(...)
  colon((...), 'copy')
  if select('#', ...) ~= 1 then fail('arity', 'copy') end
  return copy()
end

-- A record's tool_calls, handed over: each call's id and name as they are, its arguments as
-- JSON text (false when they are not a table json.encode accepts).
local function calls_of(calls)
  if calls == nil then return nil end
  if type(calls) ~= 'table' then return false end
  local out, j = {}, 1
  local call = calls[1]
  while call ~= nil do
    if type(call) ~= 'table' then
      out[j] = false
    else
      local args, text = call.arguments, false
      if type(args) == 'table' then
        local ok, s = pcall(encode, args)
        if ok then text = s end
      end
      out[j] = { id = call.id, name = call.name, arguments = text }
    end
    j = j + 1
    call = calls[j]
  end
  return out
end

-- Hands the records of a Lua list to the host, one element per call: a view by its fields, a
-- plain table by its fields as they read. `what` names the caller in the list refusal.
local function stage(records, what)
  if type(records) ~= 'table' then fail('list_type', what, tname(records)) end
  local n = 0
  while records[n + 1] ~= nil do
    n = n + 1
  end
  for k in pairs(records) do
    if math_type(k) ~= 'integer' or k < 1 or k > n then fail('list_type', what, 'table') end
  end
  H('stage_begin')
  for i = 1, n do
    local r = records[i]
    local d = view_data[r]
    if d ~= nil then
      H('stage', d.role, d.content, d.calls, d.tool_call_id, d.name)
    elseif type(r) == 'table' then
      H('stage', r.role, r.content, calls_of(r.tool_calls), r.tool_call_id, r.name)
    else
      H('stage_bad', tname(r))
    end
  end
end
lib.stage = stage

function methods.restore(...)
  colon((...), 'restore')
  if select('#', ...) ~= 2 then fail('arity', 'restore') end
  stage((select(2, ...)), 'restore')
  H('restore')
end

local function list_next(_, i)
  i = i + 1
  local v = record_at(i)
  if v ~= nil then return i, v end
  return nil
end

list = new_userdata({
  __index = function(_, k)
    if type(k) == 'number' then
      local i = tointeger(k)
      if i == nil then return nil end
      return record_at(i)
    end
    return methods[k]
  end,
  __newindex = function() fail('list_read_only') end,
  __len = function() return H('len') end,
  __pairs = function(u) return list_next, u, 0 end,
  __tostring = function() return H('text') end,
  __metatable = texts.list_meta,
})
lib.list = list
lib.is_view = function(v) return view_data[v] ~= nil end

return lib
