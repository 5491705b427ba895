import { describe, expect, it } from "vitest";
import { run } from "../vm/test-support";
import { runIteration, withIterationVm } from "./test-support";

/**
 * Every case of shared/conformance/lua/03-table-iteration.yaml whose prompt needs only pairs,
 * next and plain Lua: the block's Lua, run in a fresh VM with installIteration, must give the
 * case's result (or match its result pattern). The three cases that need the Engine (var across
 * the H1 pass and a section, run error kinds) are covered below in the part this area owns.
 */
const CASES: readonly { name: string; lua: string; result?: string; matches?: RegExp }[] = [
  {
    name: "order walks string keys sorted",
    result: "alpha, beta, mid, zeta",
    lua: `local seen = {}
for k in pairs({ zeta = 1, alpha = 2, mid = 3, beta = 4 }) do
  seen[#seen + 1] = k
end
return table.concat(seen, ', ')`,
  },
  {
    name: "the order does not depend on how the table is written",
    result: "alpha, beta, mid, zeta",
    lua: `local seen = {}
for k in pairs({ beta = 4, mid = 3, alpha = 2, zeta = 1 }) do
  seen[#seen + 1] = k
end
return table.concat(seen, ', ')`,
  },
  {
    name: "mixed-order walks the array part, then booleans, numbers, strings",
    result: "1 2 true 10 z",
    lua: `local seen = {}
for k in pairs({ 'a', 'b', z = 1, [true] = 2, [10] = 3 }) do
  seen[#seen + 1] = tostring(k)
end
return table.concat(seen, ' ')`,
  },
  {
    name: "the array part comes before string keys",
    result: "1, 2, 3, another, extra",
    lua: `local seen = {}
for k in pairs({10, 20, 30, extra = 'x', another = 'y'}) do
  seen[#seen + 1] = tostring(k)
end
return table.concat(seen, ', ')`,
  },
  {
    name: "array keys come before boolean keys",
    result: "1, true | 1, 2, false, true",
    lua: `local function walk(t)
  local seen = {}
  for k in pairs(t) do
    seen[#seen + 1] = tostring(k)
  end
  return table.concat(seen, ', ')
end
return walk({[true] = 1, "x"}) .. ' | ' .. walk({10, 20, [false] = 'f', [true] = 't'})`,
  },
  {
    name: "integer keys outside the array part sort as numbers after booleans",
    result: "1, true, 10, flag | false, 3, 7",
    lua: `local function walk(t)
  local seen = {}
  for k in pairs(t) do
    seen[#seen + 1] = tostring(k)
  end
  return table.concat(seen, ', ')
end
return walk({"a", [10] = "c", [true] = "x", flag = 1}) .. ' | ' .. walk({ [false] = 'b', [3] = 'c', [7] = 'y' })`,
  },
  {
    name: "booleans, then numbers, then strings",
    result: "false, true, 2.5, 7, a, b",
    lua: `local t = { [true] = 't', [7] = 'seven', b = 'bee', [false] = 'f', [2.5] = 'half', a = 'ay' }
local seen = {}
for k in pairs(t) do
  seen[#seen + 1] = tostring(k)
end
return table.concat(seen, ', ')`,
  },
  {
    name: "integer and float keys interleave by value",
    result: "2, 2.5, 3 | -1.5, -1, -0.5, 0",
    lua: `local function walk(t)
  local seen = {}
  for k in pairs(t) do
    seen[#seen + 1] = tostring(k)
  end
  return table.concat(seen, ', ')
end
return walk({ [3] = 'c', [2.5] = 'h', [2] = 'b' }) .. ' | ' .. walk({ [0] = 'z', [-0.5] = 'h', [-1] = 'm', [-1.5] = 'n' })`,
  },
  {
    name: "math.maxinteger sorts before the float key 2^63",
    result: "maxint, float",
    lua: `local t = { [2^63] = 'float', [math.maxinteger] = 'maxint' }
local seen = {}
for _, v in pairs(t) do
  seen[#seen + 1] = v
end
return table.concat(seen, ', ')`,
  },
  {
    name: "large integer keys keep distinct exact positions",
    result: "a, b",
    lua: `local t = { [9007199254740993] = 'b', [9007199254740992] = 'a' }
local seen = {}
for _, v in pairs(t) do
  seen[#seen + 1] = v
end
return table.concat(seen, ', ')`,
  },
  {
    name: "float keys outside the integer range sort beyond every integer key",
    result: "neg, min, zero, max, e19, e300",
    lua: `local t = {
  [1e300] = 'e300', [1e19] = 'e19', [math.maxinteger] = 'max',
  [-1e300] = 'neg', [math.mininteger] = 'min', [0] = 'zero',
}
local seen = {}
for _, v in pairs(t) do
  seen[#seen + 1] = v
end
return table.concat(seen, ', ')`,
  },
  {
    name: "string keys sort bytewise",
    result: "10, 9, B, Z, a, ab, b",
    lua: `local t = { b = 1, ab = 1, a = 1, ['9'] = 1, ['10'] = 1, Z = 1, B = 1 }
local seen = {}
for k in pairs(t) do
  seen[#seen + 1] = k
end
return table.concat(seen, ', ')`,
  },
  {
    name: "a table with only string keys visits them sorted",
    result: "alpha, beta, mid, omega, zeta",
    lua: `local seen = {}
for k in pairs({ zeta = 1, alpha = 2, mid = 3, beta = 4, omega = 5 }) do
  seen[#seen + 1] = k
end
return table.concat(seen, ', ')`,
  },
  {
    name: "table keys come after every scalar key",
    result: "string, table, table",
    lua: `local t = { a = 1 }
t[{}] = 2
t[{}] = 3
local seen = {}
for k in pairs(t) do
  seen[#seen + 1] = type(k)
end
return table.concat(seen, ', ')`,
  },
  {
    name: "invalid UTF-8 and infinite keys are visited after the ordered keys",
    result: "one, z +3",
    lua: `local t = { z = 'z', [math.huge] = 'inf', [-math.huge] = 'ninf', ['\\255'] = 'bad', [1] = 'one' }
local seen = {}
for _, v in pairs(t) do
  seen[#seen + 1] = v
end
return seen[1] .. ', ' .. seen[2] .. ' +' .. (#seen - 2)`,
  },
  {
    name: "pairs returns the iterator, the table, and nil",
    result: "function,true,nil,3",
    lua: `local t = { a = 1 }
local f, s, init = pairs(t)
return type(f) .. ',' .. tostring(s == t) .. ',' .. tostring(init) .. ',' .. select('#', pairs(t))`,
  },
  {
    name: "the pairs iterator ignores its arguments and keeps returning nil, nil",
    result: "a,b,nil,nil,nil,nil,2",
    lua: `local f = pairs({ a = 1, b = 2 })
local k1 = f()
local k2 = f('junk', 'junk')
local k3, v3 = f()
local k4, v4 = f({}, 'a')
local parts = { tostring(k1), tostring(k2), tostring(k3), tostring(v3), tostring(k4), tostring(v4) }
return table.concat(parts, ',') .. ',' .. select('#', f())`,
  },
  {
    name: "pairs reads raw contents without __index or __len",
    result: "1=10, 2=20, a=1",
    lua: `local t = setmetatable({ 10, 20, a = 1 }, {
  __index = { b = 2 },
  __len = function() return 5 end,
})
local seen = {}
for k, v in pairs(t) do
  seen[#seen + 1] = tostring(k) .. '=' .. tostring(v)
end
return table.concat(seen, ', ')`,
  },
  {
    name: "clear-ahead skips a key cleared before the loop reaches it",
    result: "a, c",
    lua: `local t = { a = 1, b = 2, c = 3 }
local seen = {}
for k in pairs(t) do
  seen[#seen + 1] = k
  if k == 'a' then t.b = nil end
end
return table.concat(seen, ', ')`,
  },
  {
    name: "clearing the current key during pairs still visits every key",
    result: "a, b, c|nil",
    lua: `local t = { a = 1, b = 2, c = 3 }
local seen = {}
for k in pairs(t) do
  seen[#seen + 1] = k
  t[k] = nil
end
return table.concat(seen, ', ') .. '|' .. tostring(next(t))`,
  },
  {
    name: "clearing the boolean key false during pairs visits each key once",
    result: "1, 2, false",
    lua: `local t = { 10, 20, [false] = 'f' }
local seen = {}
for k in pairs(t) do
  seen[#seen + 1] = tostring(k)
  if k == false then t[k] = nil end
end
return table.concat(seen, ', ')`,
  },
  {
    name: "clearing the current table-valued key during pairs does not end the walk",
    result: "3",
    lua: `local t = {}
t[{}] = 1
t[{}] = 2
t[{}] = 3
local n = 0
for k in pairs(t) do
  n = n + 1
  t[k] = nil
end
return tostring(n)`,
  },
  {
    name: "keys added during a pairs loop are not visited",
    result: "a",
    lua: `local t = { a = 1 }
local seen = {}
for k in pairs(t) do
  seen[#seen + 1] = k
  t.b = 2
  t.z = 3
end
return table.concat(seen, ', ')`,
  },
  {
    name: "a value assigned to a key not reached yet is read live",
    result: "a=1, b=20",
    lua: `local t = { a = 1, b = 2 }
local seen = {}
for k, v in pairs(t) do
  seen[#seen + 1] = k .. '=' .. v
  if k == 'a' then t.b = 20 end
end
return table.concat(seen, ', ')`,
  },
  {
    name: "custom-pairs walks an empty table through __pairs",
    result: "1:10 2:20",
    lua: `local t = setmetatable({}, {
  __pairs = function()
    local i = 0
    return function()
      i = i + 1
      if i <= 2 then return i, i * 10 end
    end
  end,
})
local out = {}
for k, v in pairs(t) do
  out[#out + 1] = k .. ':' .. v
end
return table.concat(out, ' ')`,
  },
  {
    name: "a __pairs reachable only through the metatable's __index is not used",
    result: "a",
    lua: `local mt = setmetatable({}, { __index = { __pairs = function() error('not reached') end } })
local t = setmetatable({ a = 1 }, mt)
local seen = {}
for k in pairs(t) do
  seen[#seen + 1] = k
end
return table.concat(seen, ', ')`,
  },
  {
    name: "a table in __pairs raises attempt to call a table value",
    matches: /^false\|.*attempt to call a table value \(metamethod '__pairs'\)$/,
    lua: `local ok, err = pcall(pairs, setmetatable({}, { __pairs = {} }))
return tostring(ok) .. '|' .. tostring(err)`,
  },
  {
    name: "a string in __pairs raises attempt to call a string value",
    matches: /^false\|.*attempt to call a string value \(metamethod '__pairs'\)$/,
    lua: `local ok, err = pcall(pairs, setmetatable({}, { __pairs = 'nope' }))
return tostring(ok) .. '|' .. tostring(err)`,
  },
  {
    name: "pairs of nil raises a bad argument error",
    matches: /^false\|.*bad argument #1 to 'pairs' \(table expected, got nil\)$/,
    lua: `local ok, err = pcall(pairs, nil)
return tostring(ok) .. '|' .. tostring(err)`,
  },
  {
    name: "pairs of a string raises a bad argument error naming string",
    matches: /^false\|.*bad argument #1 to 'pairs' \(table expected, got string\)$/,
    lua: `local ok, err = pcall(pairs, 'text')
return tostring(ok) .. '|' .. tostring(err)`,
  },
  {
    name: "step walks a table with next",
    result: "1, 2, false, true|only=1|true",
    lua: `local t = { 10, 20, [false] = 'f', [true] = 't' }
local seen = {}
for k in next, t do
  seen[#seen + 1] = tostring(k)
end
local first, value = next({ only = 1 })
return table.concat(seen, ', ') .. '|' .. first .. '=' .. value .. '|' .. tostring(next({}) == nil)`,
  },
  {
    name: "next after the last key returns nil, nil and next(t, nil) returns the first key",
    result: "nil,nil,2,a",
    lua: `local k, v = next({ a = 1 }, 'a')
local first = next({ b = 2, a = 1 }, nil)
return tostring(k) .. ',' .. tostring(v) .. ',' .. select('#', next({ a = 1 }, 'a')) .. ',' .. first`,
  },
  {
    name: "next never calls __pairs",
    result: "a=1",
    lua: `local t = setmetatable({ a = 1 }, { __pairs = function() error('not called') end })
local k, v = next(t)
return k .. '=' .. v`,
  },
  {
    name: "next with a first argument that is not a table raises",
    result: "false",
    lua: `local ok = pcall(next, 5)
return tostring(ok)`,
  },
  {
    name: "next with a key not in the table resumes after that key's position",
    result: "c=3",
    lua: `local k, v = next({ a = 1, c = 3 }, 'b')
return k .. '=' .. v`,
  },
  {
    name: "clearing each boolean key during a next loop visits every key once",
    result: "1, 2, false, true",
    lua: `local t = { 10, 20, [false] = 'f', [true] = 't' }
local seen = {}
for k in next, t do
  seen[#seen + 1] = tostring(k)
  if type(k) == 'boolean' then t[k] = nil end
end
return table.concat(seen, ', ')`,
  },
  {
    name: "clearing array elements during a next loop does not stop the walk",
    result: "1, 2, false | 1, false",
    lua: `local function walk(t)
  local seen = {}
  for k in next, t do
    seen[#seen + 1] = tostring(k)
    t[k] = nil
  end
  return table.concat(seen, ', ')
end
return walk({ 10, 20, [false] = 'f' }) .. ' | ' .. walk({ 10, [false] = 'f' })`,
  },
  {
    name: "clearing a hash-part integer key during a next loop replays later scalar keys",
    result: "false, 3, 7, false, 3",
    lua: `local t = { [false] = 'b', [3] = 'c', [7] = 'y' }
local seen = {}
for k in next, t do
  seen[#seen + 1] = tostring(k)
  if k == 7 then t[7] = nil end
end
return table.concat(seen, ', ')`,
  },
  {
    name: "clearing each table key during a next loop still ends the walk",
    result: "3",
    lua: `local t = {}
t[{}] = 1
t[{}] = 2
t[{}] = 3
local n = 0
for k in next, t do
  n = n + 1
  t[k] = nil
end
return tostring(n)`,
  },
];

describe("conformance: 03-table-iteration.yaml", () => {
  for (const { name, lua, result, matches } of CASES) {
    it(name, async () => {
      const outcome = await runIteration(lua);
      if (!outcome.ok) throw new Error(`block failed: ${outcome.message}`);
      const value = outcome.values[0];
      if (result !== undefined) expect(value).toBe(result);
      if (matches !== undefined) expect(String(value)).toMatch(matches);
    });
  }

  it("the H1 pass and a section walk the same table the same way (two fresh VMs, without var)", async () => {
    const walk = (table: string) => `local seen = {}
for k in pairs(${table}) do
  seen[#seen + 1] = tostring(k)
end
return table.concat(seen, ' ')`;
    const h1 = await runIteration(walk("{ [true] = 1, b = 2, [3] = 3, a = 4 }"));
    const main = await runIteration(walk("{ a = 4, [3] = 3, b = 2, [true] = 1 }"));
    expect(h1.ok && main.ok && `${h1.values[0]} | ${main.values[0]}`).toBe(
      "true 3 a b | true 3 a b",
    );
  });

  it("an uncaught pairs error ends the block with the bad argument message (the run error kind is the Engine's)", async () => {
    await withIterationVm(async (vm) => {
      const outcome = await run(vm, "for k in pairs(nil) do end\nreturn 'unreached'");
      expect(outcome.ok).toBe(false);
      if (!outcome.ok) {
        expect(outcome.reason).toBe("error");
        expect(outcome.message).toContain("bad argument #1 to 'pairs' (table expected, got nil)");
        expect(outcome.message).toBe(
          "[string \"line 1\"]:1: bad argument #1 to 'pairs' (table expected, got nil)",
        );
      }
    });
  });
});
