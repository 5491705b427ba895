-- The driver of `models.loop`, `handle:loop` and `models.compact` (docs/design/loop.md,
-- compactors.md), loaded by loop.lua on the first loop or compaction with an empty environment
-- and `(kit)`: everything it uses comes from the kit.
--
-- The host (install-loop.ts) holds every rule and text: it checks a call, renders the tool
-- list, runs the model rounds, the catalog batches and the task built-ins, and answers
-- `H('step')` with what only Lua can do next: run a local tool's handler ('local', alias,
-- arguments JSON, call id, turn), run the compactor ('compact', info), or return the final
-- reply's text ('final', text). Handlers and compactors run here, inline, in the calling
-- block's coroutine; a raise from either leaves the loop unchanged, and a to-be-closed guard
-- tells the host the loop ended on every exit, so the chain's loop lock is always released.
local kit = ...
local P, H = kit.P, kit.H
local type, select, setmetatable, error, tostring, rawget =
  P.type, P.select, P.setmetatable, P.error, P.tostring, P.rawget
local math_type, pairs, pcall = kit.math_type, kit.pairs, kit.pcall
local tools_kit, messages_kit = kit.tools_kit, kit.messages_kit

local function tname(v)
  local t = type(v)
  if t == 'number' then
    if math_type(v) == 'integer' then return 'integer' end
    return 'number'
  end
  return t
end

-- A raised value as text, for the compaction_failed report (the value itself is raised again).
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

-- Ends the loop or compaction on the host whichever way the call exits.
local guard_meta = {
  __close = function() H('end') end,
}

-- Runs the compactor on a fresh plain copy of the list and hands its result to the host, which
-- checks it whole and replaces the list (or raises). A raise from the compactor is reported and
-- raised again unchanged; under cancellation the Engine's pcall raises it at once.
local function run_compactor(compactor, info)
  local messages = messages_kit.lib()
  local ok, result = pcall(compactor, messages.copy(), info)
  if not ok then
    H('compact_failed', describe(result))
    error(result, 0)
  end
  if type(result) ~= 'table' then H('compact_refused', tname(result)) end
  local n = 0
  while result[n + 1] ~= nil do
    n = n + 1
  end
  for k in pairs(result) do
    if math_type(k) ~= 'integer' or k < 1 or k > n then H('compact_refused', 'list') end
  end
  messages.stage(result, 'compactor')
  H('compacted')
end

local function drive(compactor)
  local tools
  while true do
    local what, a, b, c, d = H('step')
    if what == 'final' then return a end
    if what == 'local' then
      tools = tools or tools_kit.lib()
      H('answer', tools.call_local(a, tools.local_handler(a), b, c, d))
    else
      run_compactor(compactor, a)
    end
  end
end

-- `label` is nil for models.loop (the section's model), the handle's role for handle:loop.
local function run(label, count, compactor)
  H('begin', label, count, tname(compactor))
  local guard <close> = setmetatable({}, guard_meta)
  return drive(compactor)
end

local lib = {}

function lib.loop(...) return run(nil, select('#', ...), (...)) end

function lib.handle_loop(label, ...) return run(label, select('#', ...), (...)) end

function lib.compact(...)
  local compactor = ...
  local info = H('compact_begin', select('#', ...), tname(compactor))
  local guard <close> = setmetatable({}, guard_meta)
  run_compactor(compactor, info)
end

return lib
