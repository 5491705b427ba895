-- The Engine guard on `_G` and the sandbox's `table.concat`, run once per VM by
-- installGlobalGuard (install.ts) through runPrivileged with `(P, refuse)`: the private table
-- (whose `global_guard` field already holds the guard state table `S`, made by install.ts) and
-- the default refusal for served names (a host function).
--
-- It builds:
-- - the guard's `__index` and `__newindex` (kept in `S.index` / `S.newindex`), which serve the
--   registered names first, then read the author metatable (`S[1]`, `false` when none) live, and
--   call a handler function as a tail call, so `error(msg, 2)` in it names the reading line;
-- - the guard itself as `_G`'s real metatable;
-- - `S.serve`, `S.unserve`, `S.is_served`, `S.getmetatable` for other Engine Lua;
-- - the sandbox's `table.concat`.
--
-- Everything it calls is captured in upvalues here, before any prompt code runs, so reassigning a
-- global (`type = nil`) or a library field (`string.format = nil`), or changing the string
-- metatable, never changes what this code does. It never uses method calls on strings.
local P, refuse = ...
local S = P.global_guard
local G = P._G
local rawget, rawset, rawequal = P.rawget, P.rawset, P.rawequal
local type, error, pcall, tostring, tonumber = P.type, P.error, P.pcall, P.tostring, P.tonumber
local getmetatable, setmetatable = P.getmetatable, P.setmetatable
local format = G.string.format
local tointeger = G.math.tointeger
local table_lib = G.table
local table_concat = table_lib.concat

local read, assign = {}, {}

-- The guard's __index: a served name, else the author metatable's __index, read live.
local function index(t, k)
  local served = read[k]
  if served ~= nil then return served(k) end
  local author = S[1]
  if not author then return nil end
  local handler = rawget(author, '__index')
  if handler == nil then return nil end
  if type(handler) == 'function' then return handler(t, k) end
  return handler[k]
end

-- The guard's __newindex: a served name, else the author metatable's __newindex, else a raw set.
local function newindex(t, k, v)
  local served = assign[k]
  if served ~= nil then return served(k, v) end
  local author = S[1]
  if author then
    local handler = rawget(author, '__newindex')
    if handler ~= nil then
      if type(handler) == 'function' then return handler(t, k, v) end
      handler[k] = v
      return
    end
  end
  if k == nil then error('table index is nil', 2) end
  if k ~= k then error('table index is NaN', 2) end
  rawset(t, k, v)
end

local function serve(name, reader, assigner)
  if type(name) ~= 'string' then error('global_guard.serve: the name must be a string', 2) end
  if reader == nil then error('global_guard.serve: ' .. name .. ' needs a read handler', 2) end
  rawset(G, name, nil)
  read[name] = reader
  assign[name] = assigner or refuse
end

local function unserve(name)
  read[name] = nil
  assign[name] = nil
end

local function is_served(name) return read[name] ~= nil end

-- What the sandbox's getmetatable answers, without its argument check.
local function sandbox_getmetatable(v)
  if rawequal(v, G) then
    local author = S[1]
    if not author then return nil end
    local protected = rawget(author, '__metatable')
    if protected ~= nil then return protected end
    return author
  end
  return getmetatable(v)
end

local function integer_argument(v, arg)
  local n = v
  if type(v) == 'string' then n = tonumber(v) end
  if type(n) == 'number' then
    local i = tointeger(n)
    if i ~= nil then return i end
    error(format("bad argument #%d to 'concat' (number has no integer representation)", arg), 3)
  end
  error(format("bad argument #%d to 'concat' (number expected, got %s)", arg, type(v)), 3)
end

-- table.concat: strings and numbers join as in stock Lua; userdata, and tables whose sandbox
-- getmetatable is a table with __tostring, join through tostring; anything else is refused
-- naming its type and index. A list without a metatable tries the stock C function first.
local function concat(list, sep, i, j)
  if sep == nil then
    sep = ''
  else
    local t = type(sep)
    if t ~= 'string' and t ~= 'number' then
      error(format("bad argument #2 to 'concat' (string expected, got %s)", t), 2)
    end
  end
  if i == nil then
    i = 1
  else
    i = integer_argument(i, 3)
  end
  if j == nil then
    j = #list
  else
    j = integer_argument(j, 4)
  end
  if type(list) == 'table' and getmetatable(list) == nil then
    local ok, joined = pcall(table_concat, list, sep, i, j)
    if ok then return joined end
  end
  local parts, n = {}, 0
  for k = i, j do
    local v = list[k]
    local t = type(v)
    if t == 'string' or t == 'number' then
      n = n + 1
      parts[n] = v
    elseif t == 'userdata' then
      n = n + 1
      parts[n] = tostring(v)
    elseif t == 'table' then
      local mt = sandbox_getmetatable(v)
      if type(mt) == 'table' and rawget(mt, '__tostring') ~= nil then
        n = n + 1
        parts[n] = tostring(v)
      else
        error(format("invalid value (table) at index %d in table for 'concat'", k))
      end
    else
      error(format("invalid value (%s) at index %d in table for 'concat'", t, k))
    end
  end
  return table_concat(parts, sep, 1, n)
end

S.read, S.assign = read, assign
S.index, S.newindex = index, newindex
S.serve, S.unserve, S.is_served = serve, unserve, is_served
S.getmetatable = sandbox_getmetatable
setmetatable(G, { __index = index, __newindex = newindex })
rawset(table_lib, 'concat', concat)
