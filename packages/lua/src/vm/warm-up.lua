-- CPU-bound Lua touching the interpreter's hot paths (calls, tables, sort, strings, errors), run
-- once in a scratch VM by LuaVmFactory.warmUp (factory.ts) so V8 tiers up the interpreter's wasm
-- code.
local function fib(n)
  if n < 2 then return n end
  return fib(n - 1) + fib(n - 2)
end
local total = fib(22)
local t = {}
for i = 1, 20000 do
  t[i] = (i * 7919) % 1000
end
table.sort(t)
local parts = {}
for i = 1, 2000 do
  parts[#parts + 1] = string.format('%d:%s', i, tostring(t[i]))
end
local text = table.concat(parts, ',')
for _ = 1, 200 do
  pcall(error, 'x')
end
return total + #text
