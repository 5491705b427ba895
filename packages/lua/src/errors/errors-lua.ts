import { ERROR_KINDS } from "../engine-error";
import { ERRORS_PRIVATE_FIELD } from "../vm/error-values";

/**
 * The chunk name of the Engine Lua behind error values and the Engine's pcall and xpcall. Its
 * frames appear in tracebacks as bare `errors.lua:{line}:` references, as the chapter says of
 * the Engine's own Lua ("Errors that pass through several blocks").
 */
export const ERRORS_CHUNK_NAME = "@errors.lua";

/**
 * The Lua installErrors runs in every VM: the Engine's pcall and xpcall, and the private table's
 * `errors` helpers table, whose other members (ERROR_HELPERS_LUA) are loaded on first use, since
 * most sections never raise an Engine error. Arguments: the private table, the host function that
 * tells whether the VM is cancelled, and ERROR_HELPERS_LUA's bytecode. It keeps every function it
 * uses in upvalues, so prompt code that rebinds `error` or `type` changes nothing here.
 */
export const ERRORS_LUA = `local P, is_cancelled, helpers = ...
local error, load, rawget, rawset, select, setmetatable, type =
  P.error, P.load, P.rawget, P.rawset, P.select, P.setmetatable, P.type
if rawget(P, '${ERRORS_PRIVATE_FIELD}') ~= nil then return end -- installed already
local raw_pcall, raw_xpcall = P.pcall, P.xpcall

local function settle(ok, ...)
  if ok then return true, ... end
  local e = ...
  if is_cancelled() then error(e, 0) end
  return false, e
end

local function pcall(...)
  if ... == nil and select('#', ...) == 0 then
    error("bad argument #1 to 'pcall' (value expected)", 2)
  end
  return settle(raw_pcall(...))
end

local function xpcall(f, ...)
  local handler = ...
  if type(handler) ~= 'function' then
    local got = select('#', ...) == 0 and 'no value' or type(handler)
    error("bad argument #2 to 'xpcall' (function expected, got " .. got .. ')', 2)
  end
  return settle(raw_xpcall(f, function(e)
    if is_cancelled() then return e end
    return handler(e)
  end, select(2, ...)))
end

local errors = { pcall = pcall, xpcall = xpcall, cancelled = is_cancelled }
local function load_helpers()
  if rawget(errors, 'meta') == nil then
    load(helpers, '=errors', 'b')(P, errors)
    setmetatable(errors, nil)
  end
  return errors
end
errors.load = load_helpers
setmetatable(errors, { __index = function(_, key) return rawget(load_helpers(), key) end })

rawset(P._G, 'pcall', pcall)
rawset(P._G, 'xpcall', xpcall)
rawset(P, '${ERRORS_PRIVATE_FIELD}', errors)
`;

const kindTable = ERROR_KINDS.map((kind) => `${kind} = true`).join(", ");

/**
 * The error helpers, loaded into the `errors` table on first use (by Engine Lua reading one of
 * them, or by the VM building its first error value): the one error metatable, the weak sets
 * that record the VM's own error values and its quota refusals, and the functions `new`, `is`,
 * `raise`, `runtime`, `quota`, `from` and `guard`. Arguments: the private table and `errors`.
 */
export const ERROR_HELPERS_LUA = `local P, errors = ...
local error, next, pcall, rawget, setmetatable, tostring, type =
  P.error, P.next, P.pcall, P.rawget, P.setmetatable, P.tostring, P.type
local is_cancelled = errors.cancelled

local kinds = { ${kindTable} }

-- Every error value made in this VM (weak keys): how the Engine knows its own values.
local values = setmetatable({}, { __mode = 'k' })
-- The error values that are exhausted-quota refusals (weak keys).
local quota_marks = setmetatable({}, { __mode = 'k' })

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
  values[e] = true
  return setmetatable(e, meta)
end

local function is(v)
  return v ~= nil and values[v] == true
end

local function raise(kind, message, fields)
  error(new(kind, message, fields), 0)
end

local function runtime(text)
  error(new('lua', 'runtime error: ' .. text), 0)
end

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
errors.new = new
errors.is = is
errors.raise = raise
errors.runtime = runtime
errors.quota = quota
errors.from = from
errors.guard = guard
errors.meta = meta
`;
