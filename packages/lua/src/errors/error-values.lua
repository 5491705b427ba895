-- The error helpers, loaded into the `errors` table on first use (by Engine Lua reading one of
-- them, or by the VM building its first error value) with `(P, errors, kinds, gmatch)`: the
-- private table, the `errors` table, the error kinds (one text, space-separated) and the original
-- string.gmatch (errors.lua captured it before any prompt code ran).
--
-- It adds the one error metatable, the weak sets that record the VM's own error values and its
-- quota refusals (and their run error kinds and causes), and the functions `new`, `is`, `raise`, `runtime`, `quota`, `from` and `guard`.
local P, errors, kinds_text, gmatch = ...
local error, next, pcall, rawget, setmetatable, tostring, type =
  P.error, P.next, P.pcall, P.rawget, P.setmetatable, P.tostring, P.type
local is_cancelled = errors.cancelled

local kinds = {}
for kind in gmatch(kinds_text, '%S+') do
  kinds[kind] = true
end

-- Every error value made in this VM (weak keys), mapped to the kind it was made with: how the
-- Engine knows its own values, and their kinds whatever a prompt later writes into `kind`.
local values = setmetatable({}, { __mode = 'k' })
-- The error values that are exhausted-quota refusals (weak keys).
local quota_marks = setmetatable({}, { __mode = 'k' })
-- The run error kind an uncaught value ends the run with instead of its kind's, and the cause
-- text it carries (weak keys, string values; the VM records them with the value).
local run_kinds = setmetatable({}, { __mode = 'k' })
local causes = setmetatable({}, { __mode = 'k' })

local function message_of(e)
  local message = rawget(e, 'message')
  local t = type(message)
  if t == 'string' then return message end
  if t == 'number' then return tostring(message) end
  local kind = rawget(e, 'kind')
  if type(kind) == 'string' then return kind end
  return 'error'
end

local function operand(v)
  local t = type(v)
  if t == 'string' or t == 'number' then return v end
  if values[v] then return message_of(v) end
  error('attempt to concatenate a ' .. t .. ' value', 3)
end

-- What getmetatable returns for an error value: the same read-only table for all of them.
local shown = setmetatable({}, {
  __newindex = function() error('the metatable of error values is read-only', 2) end,
  __metatable = false,
})

local meta = {
  __tostring = message_of,
  __concat = function(a, b) return operand(a) .. operand(b) end,
  __metatable = shown,
}

local function new(kind, message, fields)
  if not kinds[kind] then error('unknown error kind: ' .. tostring(kind), 2) end
  if message == nil or message == '' then
    message = kind
  elseif type(message) ~= 'string' then
    error('an error message must be a string, got ' .. type(message), 2)
  end
  local e = { kind = kind, message = message }
  if fields ~= nil then
    for key, value in next, fields do
      if key ~= 'kind' and key ~= 'message' then e[key] = value end
    end
  end
  values[e] = kind
  return setmetatable(e, meta)
end

local function is(v) return v ~= nil and values[v] ~= nil end

local function raise(kind, message, fields) error(new(kind, message, fields), 0) end

local function runtime(text) error(new('lua', 'runtime error: ' .. text), 0) end

local function quota(message)
  local e = new('lua', message)
  quota_marks[e] = true
  error(e, 0)
end

local function from(v)
  if v ~= nil and values[v] then return v end
  local t = type(v)
  if t == 'string' then return new('lua', v) end
  if t == 'number' then return new('lua', tostring(v)) end
  return new('lua', '(error object is a ' .. t .. ' value)')
end

local function settle_guarded(ok, ...)
  if ok then return ... end
  local e = ...
  if is_cancelled() then error(e, 0) end
  error(from(e), 0)
end

local function guard(fn)
  return function(...) return settle_guarded(pcall(fn, ...)) end
end

errors.values = values
errors.quota_marks = quota_marks
errors.run_kinds = run_kinds
errors.causes = causes
errors.new = new
errors.is = is
errors.raise = raise
errors.runtime = runtime
errors.quota = quota
errors.from = from
errors.guard = guard
errors.meta = meta
