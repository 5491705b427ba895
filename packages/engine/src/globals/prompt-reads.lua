-- The implementation of `prompt.section` and `prompt.list`, loaded by prompt.lua on the first
-- member read with an empty environment and `(kit)`: everything it uses comes from the kit. It
-- returns the members table.
--
-- The Lua side checks the arguments' Lua shapes (argument count, the options table, integers
-- against floats) and renders; the host resolves the target, holds every text and raises every
-- refusal. The placeholder renderer is the `prose` global's (prose.lua), loaded on the first read
-- that renders, with a `fail` that names the placeholder itself.
local kit = ...
local P, H, concat, math_type, array = kit.P, kit.H, kit.concat, kit.math_type, kit.array
local rawget, type, select, next, tostring, load =
  P.rawget, P.type, P.select, P.next, P.tostring, P.load

local renderer
local function render(parts)
  -- A binary chunk keeps the name it was compiled under, runvil/prose.lua.
  if renderer == nil then renderer = load(H('code', 'prose'), '=prose', 'b', {})(kit) end
  return renderer(
    parts,
    function(kind, index, t) H('render_fail', kind, '{{ ' .. concat(parts[index], '.') .. ' }}', t) end
  )
end

local function tname(v)
  local t = type(v)
  if t == 'number' and math_type(v) == 'integer' then return 'integer' end
  return t
end

-- json.encode's fixed key order: booleans, numbers by value, strings bytewise, then other types
-- by type name; a key is named by its text (strings, integers) or its type name.
local function rank(k)
  local t = type(k)
  if t == 'boolean' then return 0, k and 1 or 0 end
  if t == 'number' then return 1, k end
  if t == 'string' then return 2, k end
  return 3, t
end
local function key_name(k)
  local t = type(k)
  if t == 'string' then return k end
  if t == 'number' and math_type(k) == 'integer' then return tostring(k) end
  return t
end

local function read_raw_option(fn, options)
  if options == nil then return false end
  if type(options) ~= 'table' then H('fail', 'options', fn, tname(options)) end
  local bad, bad_group, bad_value
  for k in next, options do
    if k ~= 'raw' then
      local group, value = rank(k)
      if bad == nil or group < bad_group or (group == bad_group and value < bad_value) then
        bad, bad_group, bad_value = k, group, value
      end
    end
  end
  if bad ~= nil then H('fail', 'unknown_option', fn, key_name(bad)) end
  local raw = rawget(options, 'raw')
  if raw ~= nil and type(raw) ~= 'boolean' then H('fail', 'raw_option', fn, tname(raw)) end
  return raw == true
end

local function read(fn, ...)
  if select('#', ...) > 2 then H('fail', 'takes', fn) end
  local target, options = ...
  if type(target) ~= 'string' then H('fail', 'target') end
  local raw = read_raw_option(fn, options)
  local found = H('read', fn, target, raw)
  if fn == 'section' then
    if raw then return found end
    return render(found)
  end
  local items = {}
  for i = 1, #found do
    if raw then
      items[i] = found[i]
    else
      items[i] = render(found[i])
    end
  end
  return array(items)
end

return {
  section = function(...) return read('section', ...) end,
  list = function(...) return read('list', ...) end,
}
