/**
 * CPU-bound Lua workloads (standard Lua 5.4, sandbox-safe), each a chunk that returns a value,
 * sized to take roughly 20–100 ms in wasmoon on the build VM.
 */
export const CPU_WORKLOADS: readonly { readonly name: string; readonly source: string }[] = [
  {
    name: "fib",
    source: `local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end
return fib(27)`,
  },
  {
    name: "table build",
    source: `local t = {}
for i = 1, 600000 do t[i] = i * 2 end
local s = 0
for i = 1, #t do s = s + t[i] end
local r = {}
for i = 1, 60000 do r['k' .. (i % 5000)] = i end
return s`,
  },
  {
    name: "sort",
    source: `local t, x = {}, 42
for i = 1, 100000 do x = (x * 1103515245 + 12345) % 2147483648 t[i] = x end
table.sort(t)
local u = {}
for i = 1, 20000 do u[i] = t[i] % 977 end
table.sort(u, function(a, b) return a > b end)
return t[1] + u[1]`,
  },
  {
    name: "string build",
    source: `local parts = {}
for i = 1, 100000 do parts[#parts + 1] = 'item ' .. i .. ':' .. string.rep('x', i % 7) end
local text = table.concat(parts, ',')
local s = ''
for i = 1, 4000 do s = s .. tostring(i) end
local n = 0
for w in text:gmatch('item (%d+)') do n = n + 1 end
return #text + #s + n`,
  },
  {
    name: "alloc churn",
    source: `local keep = {}
for i = 1, 150000 do
  local t = { i, tostring(i), { x = i } }
  keep[i % 1000 + 1] = t
end
local s = 0
for i = 1, 30000 do s = s + #(('%d-%d'):format(i, s % 97)) end
return s`,
  },
];
