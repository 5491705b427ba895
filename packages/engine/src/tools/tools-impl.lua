-- The implementation of every member of `tools` and `packs`, loaded by tools.lua on the first read
-- of any member, with an empty environment and `(kit)`: everything it uses comes from the kit
-- (`kit.texts` holds the texts and names install-tools.ts hands over with the bytecode).
--
-- Tool and Pack objects (frozen userdata, one per tool or Pack per VM, built on first use), the
-- argument shapes, local tools and their handlers (run inline in the calling block's coroutine),
-- and the catalog calls (one suspending host call).
local kit = ...
local P, H, texts = kit.P, kit.H, kit.texts
local rawget, setmetatable, type, select, tostring, error =
  P.rawget, P.setmetatable, P.type, P.select, P.tostring, P.error
local math_type, byte, pairs, pcall = kit.math_type, kit.byte, kit.pairs, kit.pcall
local encode, decode = kit.encode, kit.decode
local new_userdata = rawget(P, texts.new_userdata_field)

local function tname(v)
  local t = type(v)
  if t == 'number' then
    if math_type(v) == 'integer' then return 'integer' end
    return 'number'
  end
  return t
end

local function fail(what, ...) H('fail', what, ...) end

-- Objects: one per tool and per Pack in this VM, so == and table keys work everywhere.
local tool_ids, tool_fields, tools_by_id = {}, {}, {}
local pack_ids, packs_by_id = {}, {}
local tool_lists, pack_tool_lists, pack_lists = {}, {}, {}
local pack_meta

local function pack_object(id)
  local o = packs_by_id[id]
  if o == nil then
    o = new_userdata(pack_meta)
    pack_ids[o] = id
    packs_by_id[id] = o
  end
  return o
end

local tool_meta = {
  __index = function(u, k)
    local f = tool_fields[u]
    if f ~= nil then return f[k] end
  end,
  __newindex = function(_, k) fail('tool_frozen', k) end,
  __metatable = texts.tool_meta,
  __tostring = function(u) return 'tool: ' .. tool_ids[u] end,
}

local function tool_object(id, pack, description)
  local o = tools_by_id[id]
  if o == nil then
    o = new_userdata(tool_meta)
    tool_ids[o] = id
    tool_fields[o] = { id = id, description = description, pack = pack_object(pack) }
    tools_by_id[id] = o
  end
  return o
end

-- flat lists from the host: id, Pack id, description, id, ...
local function objects_of(flat)
  local out, n = {}, 0
  for i = 1, #flat, 3 do
    n = n + 1
    out[n] = tool_object(flat[i], flat[i + 1], flat[i + 2])
  end
  return out
end

local function tool_list(which)
  local flat = tool_lists[which]
  if flat == nil then
    flat = H('tool_list', which)
    tool_lists[which] = flat
  end
  return objects_of(flat)
end

local function pack_tools(id)
  local flat = pack_tool_lists[id]
  if flat == nil then
    flat = H('tool_list', 'pack', id)
    pack_tool_lists[id] = flat
  end
  return objects_of(flat)
end

pack_meta = {
  __index = function(u, k)
    local id = pack_ids[u]
    if k == 'name' then return id end
    if k == 'tools' then return pack_tools(id) end
  end,
  __newindex = function(_, k) fail('pack_frozen', k) end,
  __metatable = texts.pack_meta,
  __tostring = function(u) return 'pack: ' .. pack_ids[u] end,
}

local function pack_list(which)
  local ids = pack_lists[which]
  if ids == nil then
    ids = H('pack_list', which)
    pack_lists[which] = ids
  end
  local out = {}
  for i = 1, #ids do
    out[i] = pack_object(ids[i])
  end
  return out
end

local lib = {}

function lib.get(...)
  local id = ...
  if type(id) ~= 'string' then fail('tools_get', tname(id)) end
  local o = tools_by_id[id]
  if o ~= nil then return o end
  local pack, description = H('tool', id)
  if pack == nil then return nil end
  return tool_object(id, pack, description)
end

function lib.required() return tool_list('required') end
function lib.extras() return tool_list('extras') end

function lib.packs_get(...)
  local id = ...
  if type(id) ~= 'string' then fail('packs_get', tname(id)) end
  local o = packs_by_id[id]
  if o ~= nil then return o end
  if H('pack', id) then return pack_object(id) end
  return nil
end

function lib.packs_required() return pack_list('required') end
function lib.packs_extras() return pack_list('extras') end

-- The names one offer argument gives: a name, or an object read through `known`, or an array
-- of them (its sequence part); any other value fails with the `shape` refusal.
local function offered_names(v, known, shape)
  if type(v) ~= 'table' then
    local id = type(v) == 'string' and v or known[v]
    if id == nil then fail(shape, tname(v)) end
    return { id }
  end
  local ids, i, e = {}, 1, v[1]
  while e ~= nil do
    local id = type(e) == 'string' and e or known[e]
    if id == nil then fail(shape, tname(e)) end
    ids[i] = id
    i = i + 1
    e = v[i]
  end
  return ids
end

-- Offers: the fixed-list refusal first, then the shape of every entry, then the host checks
-- every name and records all of them or none.
function lib.offer(...)
  H('open', 'tools.offer')
  if select('#', ...) > 1 then fail('offer_extra', tname((select(2, ...)))) end
  local v = ...
  if v == nil then return end
  local ids = offered_names(v, tool_ids, 'offer_shape')
  if #ids > 0 then H('offer', ids) end
end

function lib.packs_offer(...)
  H('open', 'packs.offer')
  if select('#', ...) > 1 then fail('packs_offer_extra', tname((select(2, ...)))) end
  local ids = offered_names((...), pack_ids, 'packs_offer_shape')
  if #ids > 0 then H('offer_packs', ids) end
end

function lib.allow_tasks(...)
  local targets = ...
  if targets == nil then
    H('allow_tasks')
    return
  end
  if type(targets) ~= 'table' then fail('allow_type', tname(targets)) end
  local list, i, e = {}, 1, targets[1]
  while e ~= nil do
    if type(e) ~= 'string' then fail('allow_entry', tname(e)) end
    list[i] = e
    i = i + 1
    e = targets[i]
  end
  if i == 1 then fail('allow_empty') end
  H('allow_tasks', list)
end

-- Local tools: the handlers stay here; the host keeps the schema and the scope.
local locals = {}

local function text_of(v)
  local t = type(v)
  if t == 'string' then return v end
  if t == 'number' then return tostring(v) end
  fail('convert', tname(v))
end

function lib.offer_local(...)
  H('open', 'tools.offer_local')
  local alias, description, params, handler = ...
  if type(alias) ~= 'string' then fail('arg_type', 'alias', 'string', tname(alias)) end
  if type(description) ~= 'string' then
    fail('arg_type', 'description', 'string', tname(description))
  end
  if type(params) ~= 'table' then fail('arg_type', 'params', 'table', tname(params)) end
  if type(handler) ~= 'function' then fail('arg_type', 'handler', 'function', tname(handler)) end
  H('check_alias', alias)
  local flat, n = {}, 0
  for name, spec in pairs(params) do
    if type(name) ~= 'string' then fail('param_name', tname(name)) end
    local kind, what, about = type(spec), nil, false
    if kind == 'string' then
      what = spec
    elseif kind == 'table' then
      what = text_of(spec[1])
      local d = spec[2]
      if d ~= nil then about = text_of(d) end
    else
      fail('param_spec', name)
    end
    flat[n + 1], flat[n + 2], flat[n + 3] = name, what, about
    n = n + 3
  end
  H('define_local', alias, description, flat)
  locals[alias] = handler
end

-- tools.calls: nil until the section's first tool call, then a read-only view of the counts.
local calls = setmetatable({}, {
  __index = function(_, k) return H('count', k) end,
  __newindex = function() fail('calls_read_only') end,
  __metatable = texts.calls_meta,
})

function lib.calls()
  if H('calls_ready') then return calls end
  return nil
end

-- tools.call
local reserved = { task = true, task_cancel = true, task_status = true, await_tasks = true }

local function args_text(args)
  if args == nil then return '{}' end
  local ok, out = pcall(encode, args)
  if not ok then
    if type(out) == 'table' then
      local m = rawget(out, 'message')
      if type(m) == 'string' then fail('args_json', m) end
    end
    error(out, 0)
  end
  if byte(out, 1) == 91 then fail('args_list') end
  return out
end

local function describe(e)
  local t = type(e)
  if t == 'string' then return e end
  if t == 'number' then return tostring(e) end
  if t == 'table' then
    local m = rawget(e, 'message')
    if type(m) == 'string' then return m end
  end
  return '(error object is a ' .. t .. ' value)'
end

local function finish(ok, ...)
  if not ok then
    local e = ...
    H('local_failed', describe(e))
    error(e, 0)
  end
  local v = ...
  local t = type(v)
  local content
  if v == nil then
    content = ''
  elseif t == 'string' then
    content = v
  elseif t == 'number' or t == 'boolean' then
    content = tostring(v)
  else
    H('local_rejected', t)
  end
  H('local_done', content)
  return content
end

-- Runs the local tool `name` inline: its handler gets a fresh table decoded from `text`.
-- `call_id` is '' for a script call (the model loop passes the model's call id and its round).
local function call_local(name, handler, text, call_id, turn)
  local args = decode(text)
  H('local_start', name, call_id, text, turn)
  return finish(pcall(handler, args))
end

function lib.call(...)
  local tool, args = ...
  local t, name = type(tool), nil
  if t == 'string' then
    name = tool
  elseif t == 'userdata' then
    name = tool_ids[tool]
  end
  if name == nil then fail('call_shape', tname(tool)) end
  if args ~= nil and type(args) ~= 'table' then fail('args_type', tname(args)) end
  local text = args_text(args)
  if reserved[name] then H('unbound', name) end
  local handler = locals[name]
  if handler ~= nil then return call_local(name, handler, text, '') end
  local out, structured = H('call', name, text)
  if structured then return decode(out) end
  return out
end

-- For the model loop: run a local tool by alias with JSON argument text under a model call id.
lib.call_local = call_local
function lib.local_handler(alias) return locals[alias] end
function lib.tool_id(object) return tool_ids[object] end

-- The members; from now on reads of tools.x and packs.x index these tables directly.
lib.tool_members = setmetatable({
  call = lib.call,
  offer = lib.offer,
  offer_local = lib.offer_local,
  required = lib.required,
  extras = lib.extras,
  get = lib.get,
  allow_tasks = lib.allow_tasks,
}, {
  __index = function(_, k)
    if k == 'calls' then return lib.calls() end
  end,
})
lib.pack_members = {
  required = lib.packs_required,
  extras = lib.packs_extras,
  get = lib.packs_get,
  offer = lib.packs_offer,
}
kit.tools_meta.__index = lib.tool_members
kit.packs_meta.__index = lib.pack_members

return lib
