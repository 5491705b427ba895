-- The placeholder renderer, a part of engine.lua loaded on first use with `(kit)`: returns
-- `render(parts, fail)`, which renders a template (literals at odd indexes, placeholder paths at
-- even ones) with this VM's globals, `var` and `sys`, calling `fail(kind, index, type)` for a
-- placeholder that cannot render (`fail` raises). The `prose` global renders the running block's
-- pending prose with it (docs/design/prose.md); `prompt.section` and `prompt.list` load their own
-- copy (prompt-reads.lua).
local kit = ...
local P, G, concat, encode, null = kit.P, kit.G, kit.concat, kit.encode, kit.null
local rawget, type, tostring, pcall = P.rawget, P.type, P.tostring, P.pcall

local function value_of(path, index, fail)
  local root = path[1]
  local v, first
  if root == 'prose' then
    fail('Recursive', index)
  elseif root == 'sys' then
    local sys, name = rawget(G, 'sys'), path[2]
    v, first = sys, 3
    if name ~= nil then
      local ok, found = pcall(function() return sys[name] end)
      v = ok and found or nil
    end
  elseif root == 'var' then
    v, first = rawget(G, 'var'), 2
  else
    v, first = G[root], 2
  end
  for i = first, #path do
    if v == nil or v == null then return v end
    if type(v) ~= 'table' then return nil end
    v = v[path[i]]
  end
  return v
end

return function(parts, fail)
  local out = {}
  for i = 1, #parts do
    local part = parts[i]
    if i % 2 == 1 then
      out[i] = part
    else
      local v = value_of(part, i, fail)
      local t = type(v)
      if v == nil then
        fail('MissingKey', i)
      elseif v == null then
        fail('NullValue', i)
      elseif t == 'string' then
        out[i] = v
      elseif t == 'number' or t == 'boolean' then
        out[i] = tostring(v)
      elseif t == 'table' then
        out[i] = encode(v)
      else
        fail('NotText', i, t)
      end
    end
  end
  return concat(out)
end
