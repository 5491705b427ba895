-- The members of `compactors` (docs/design/compactors.md "Built-ins"), loaded by loop.lua on the
-- first read of a member, with an empty environment and `(kit)`: everything it uses comes from
-- the kit. Returns the member table.
--
-- Each member is a compactor, or makes one, and each also works called directly on a plain
-- list. The host (install-compactors.ts, `C(op, ...)`) decides which records stay from their
-- roles and runs the summarising round; this file builds the lists from the records as given,
-- so record views and plain tables pass through unchanged.
local kit = ...
local P, C = kit.P, kit.C
local type, select, rawget = P.type, P.select, P.rawget
local math_type, pairs = kit.math_type, kit.pairs
local messages_kit = kit.messages_kit

local function tname(v)
  local t = type(v)
  if t == 'number' then
    if math_type(v) == 'integer' then return 'integer' end
    return 'number'
  end
  return t
end

local function fail(what, ...) C('fail', what, ...) end

-- The role of an element of a history list: a view's or a table's `role`, else nil.
local function role_of(record)
  local messages = messages_kit.lib()
  if messages.is_view(record) then return record.role end
  if type(record) == 'table' then
    local role = record.role
    if type(role) == 'string' then return role end
  end
  return nil
end

-- The roles of a history list's sequence part, as a list (false for no role string).
local function roles_of(fn, history)
  if type(history) ~= 'table' then fail('history_type', fn, tname(history)) end
  local roles, i = {}, 1
  local record = history[1]
  while record ~= nil do
    local role = role_of(record)
    if role == nil then role = false end
    roles[i] = role
    i = i + 1
    record = history[i]
  end
  return roles
end

-- The sequence part of `history`, as a fresh list.
local function sequence(history)
  local out, i = {}, 1
  local record = history[1]
  while record ~= nil do
    out[i] = record
    i = i + 1
    record = history[i]
  end
  return out
end

-- The records of `history` at the kept indices (from 1, in order).
local function pick(history, kept)
  local out = {}
  for i = 1, #kept do
    out[i] = history[kept[i]]
  end
  return out
end

local members = {}

function members.fail(...)
  local info = select(2, ...)
  if select('#', ...) < 2 or type(info) ~= 'table' then fail('fail_arguments') end
  C('give_up', info.reason, info.message)
end

function members.clear(history)
  return pick(history, C('clear', roles_of('compactors.clear', history)))
end

function members.keep_last(...)
  local n = ...
  if select('#', ...) ~= 1 or math_type(n) ~= 'integer' or n < 1 then
    fail('keep_last_count', n, tname(n))
  end
  return function(history)
    return pick(history, C('keep_last', n, roles_of('compactors.keep_last', history)))
  end
end

local known_options = { keep = true, role = true, instructions = true }

function members.summarize(...)
  local options = ...
  if options == nil then
    options = {}
  elseif type(options) ~= 'table' then
    fail('summarize_type', tname(options))
  end
  for key in pairs(options) do
    if not known_options[key] then fail('summarize_option', key) end
  end
  local keep, role, instructions = options.keep, options.role, options.instructions
  if keep ~= nil and (math_type(keep) ~= 'integer' or keep < 1) then
    fail('summarize_keep', keep, tname(keep))
  end
  -- The host checks the other values now, so a bad option fails where it is written.
  C('summarize_options', role, instructions)
  return function(history, info)
    roles_of('compactors.summarize', history)
    messages_kit.lib().stage(sequence(history), 'compactor')
    local loop_role = nil
    if type(info) == 'table' then loop_role = rawget(info, 'role') end
    local start, record = C('summarize', keep, role, instructions, loop_role)
    if start == nil then return history end
    local out, n = {}, 0
    for i = 1, start - 1 do
      local r = history[i]
      if role_of(r) == 'system' then
        n = n + 1
        out[n] = r
      end
    end
    n = n + 1
    out[n] = { role = 'user', content = record }
    local i = start
    local r = history[i]
    while r ~= nil do
      n = n + 1
      out[n] = r
      i = i + 1
      r = history[i]
    end
    return out
  end
end

return members
