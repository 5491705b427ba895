-- The Engine's pcall and xpcall and the private table's `errors` helpers table, run once per VM
-- by installErrors (install-errors.ts) through runPrivileged with
-- `(P, is_cancelled, helpers, field, kinds)`: the private table, the host function that tells
-- whether the VM is cancelled, the bytecode of error-values.lua, the private-table field that
-- holds the helpers table, and the error kinds (one text, space-separated) for error-values.lua.
--
-- The helpers' other members (error-values.lua) load on first use, since most sections never
-- raise an Engine error. It keeps every function it uses in upvalues, so prompt code that rebinds
-- `error` or `type` changes nothing here.
local P, is_cancelled, helpers, field, kinds = ...
local error, load, rawget, rawset, select, setmetatable, type =
  P.error, P.load, P.rawget, P.rawset, P.select, P.setmetatable, P.type
if rawget(P, field) ~= nil then return end -- installed already
local raw_pcall, raw_xpcall = P.pcall, P.xpcall
local gmatch = P._G.string.gmatch

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
    -- A binary chunk keeps the name it was compiled under (runvil/error-values.lua).
    load(helpers, '=error-values', 'b')(P, errors, kinds, gmatch)
    setmetatable(errors, nil)
  end
  return errors
end
errors.load = load_helpers
setmetatable(errors, { __index = function(_, key) return rawget(load_helpers(), key) end })

rawset(P._G, 'pcall', pcall)
rawset(P._G, 'xpcall', xpcall)
rawset(P, field, errors)
