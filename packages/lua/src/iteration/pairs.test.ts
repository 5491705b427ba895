import { describe, expect, it } from "vitest";
import { run } from "../vm/test-support";
import { resultOf, runIteration, WALK_LUA, withIterationVm } from "./test-support";

describe("pairs: the order", () => {
  it("sorts numbers exactly, integers and floats together, past 2^53 and 2^63", async () => {
    expect(
      await resultOf(`${WALK_LUA}
return walk({ [2^53] = 1, [2^53 + 2] = 1, [9007199254740993] = 1, [-9007199254740993] = 1,
  [-(2^53)] = 1, [2^63] = 1, [-2^63] = 1, [math.maxinteger] = 1, [1e308] = 1, [-1e308] = 1,
  [0.1] = 1, [-0.0] = 1, [3.5] = 1, [-2^63 * 2] = 1 })`),
    ).toBe(
      "-1e+308, -1.844674407371e+19, -9223372036854775808, -9007199254740993, " +
        "-9007199254740992, 0, 0.1, 3.5, 9007199254740992, 9007199254740993, 9007199254740994, " +
        "9223372036854775807, 9.2233720368548e+18, 1e+308",
    );
  });

  it("keeps integer keys that a float key normalized, and -0.0 as the key 0", async () => {
    expect(
      await resultOf(`local t = { [3.0] = 'a', [-0.0] = 'z', [2^60] = 'big' }
local out = {}
for k, v in pairs(t) do out[#out + 1] = math.type(k) .. ':' .. tostring(k) .. '=' .. v end
return table.concat(out, ' ')`),
    ).toBe("integer:0=z integer:3=a integer:1152921504606846976=big");
  });

  it("sorts string keys by their bytes: NUL, UTF-8 past U+FFFF, long keys", async () => {
    expect(
      await resultOf(`local keys = { 'a\\0b', 'a', 'a\\0', '\\u{10000}', '\\u{FFFF}', 'é', 'z',
  string.rep('m', 45) .. 'b', string.rep('m', 45) .. 'a', string.rep('m', 45), '' }
local t = {}
for i, k in ipairs(keys) do t[k] = i end
local out = {}
for k, v in pairs(t) do out[#out + 1] = v end
return table.concat(out, ' ')`),
    ).toBe("11 2 3 1 10 9 8 7 6 5 4");
  });

  it("puts the trailing group last: tables and functions, then -inf, +inf, invalid UTF-8 bytewise", async () => {
    expect(
      await resultOf(`local f = function() end
local t = { [math.huge] = 'inf', ['\\255'] = 'xff', ['\\192\\128'] = 'overlong', [-math.huge] = 'ninf',
  ['\\237\\160\\128'] = 'surrogate', [f] = 'fn', [{}] = 'table', b = 'b', [1] = 'one' }
local out = {}
for k, v in pairs(t) do out[#out + 1] = type(k) == 'table' and 'T' or type(k) == 'function' and 'F' or v end
return table.concat(out, ' ')`),
    ).toMatch(/^one b (T F|F T) ninf inf overlong surrogate xff$/);
  });

  it("walks the array part to the raw border, ignoring __len, skipping nil slots", async () => {
    expect(
      await resultOf(`${WALK_LUA}
local t = setmetatable({ 1, 2, nil, 4, [false] = 0 }, { __len = function() return 1 end })
return walk(t)`),
    ).toBe("1, 2, 4, false");
  });

  it("gives the same order however the table was built", async () => {
    expect(
      await resultOf(`${WALK_LUA}
local a, b = {}, {}
local keys = { 'x', 3, true, -1.5, 'alpha', false, 10, 'é', 2^70 }
for i = 1, #keys do a[keys[i]] = i end
for i = #keys, 1, -1 do b[keys[i]] = i end
local c = {}
for i = 1, 200 do c['tmp' .. i] = i end
for i = 1, #keys do c[keys[i]] = i end
for i = 1, 200 do c['tmp' .. i] = nil end
return walk(a) == walk(b) and walk(b) == walk(c) and walk(a)`),
    ).toBe("false, true, -1.5, 3, 10, 1.1805916207174e+21, alpha, x, é");
  });
});

describe("pairs: what it returns", () => {
  it("passes every result of __pairs through, and calls it with the table", async () => {
    expect(
      await resultOf(`local t = setmetatable({}, { __pairs = function(self) return 1, self, 3, 4, 5 end })
local a, b, c, d, e = pairs(t)
return select('#', pairs(t)) .. ' ' .. tostring(b == t) .. ' ' .. a .. c .. d .. e`),
    ).toBe("5 true 1345");
  });

  it("names the type of a __pairs that is not a function, a callable table included", async () => {
    expect(
      await resultOf(`local callable = setmetatable({}, { __call = function() end })
local out = {}
for _, mm in ipairs({ false, 42, callable }) do
  local ok, err = pcall(pairs, setmetatable({}, { __pairs = mm }))
  out[#out + 1] = tostring(ok) .. ':' .. err
end
return table.concat(out, '|')`),
    ).toBe(
      "false:attempt to call a boolean value (metamethod '__pairs')|" +
        "false:attempt to call a number value (metamethod '__pairs')|" +
        "false:attempt to call a table value (metamethod '__pairs')",
    );
  });

  it("raises the argument error at the caller's line, and says 'no value' for no argument", async () => {
    const outcome = await runIteration(
      "local x = 1\nlocal ok, err = pcall(function() local f = pairs(42) return f end)\nlocal ok2, err2 = pcall(pairs)\nreturn err .. '|' .. err2",
    );
    expect(outcome.ok && outcome.values[0]).toBe(
      `[string "line 1"]:2: bad argument #1 to 'pairs' (table expected, got number)|` +
        "bad argument #1 to 'pairs' (table expected, got no value)",
    );
  });

  it("returns an iterator that reads values raw and live, and skips cleared keys of every type", async () => {
    expect(
      await resultOf(`local k1, k2 = {}, {}
local t = setmetatable({ 'a', 'b', x = 1, [false] = 2, [k1] = 3, [1.5] = 4 }, { __index = function() return 'ghost' end })
t[k2] = 5
local out = {}
for k, v in pairs(t) do
  out[#out + 1] = (type(k) == 'table' and 'T' or tostring(k)) .. '=' .. tostring(v)
  if k == 1 then t[2] = nil; t[false] = nil; t[1.5] = nil; t.x = 'live' end
  if type(k) == 'table' then t[k1] = nil; t[k2] = nil end
end
return table.concat(out, ' ')`),
    ).toMatch(/^1=a x=live T=(3|5)$/);
  });
});

describe("pairs: the kept order", () => {
  const BIG = "local t = {} for i = 1, 40 do t['k' .. string.format('%02d', i)] = i end";

  it("sees a key added between two walks of a large table", async () => {
    expect(
      await resultOf(`${WALK_LUA}
${BIG}
local before = walk(t)
t.k20a = 0
local after = walk(t)
t.k20a = nil
t.k00 = 0
return #before .. ' ' .. after:sub(1, 3) .. ' ' .. after:match('k20, k20a, k21') .. ' ' .. walk(t):sub(1, 8)`),
    ).toBe("198 k01 k20, k20a, k21 k00, k01");
  });

  it("sees a key removed and added back, a value changed, and a rehash", async () => {
    expect(
      await resultOf(`${BIG}
local function sum(t) local s, n = 0, 0 for k, v in pairs(t) do s = s + v n = n + 1 end return n .. '/' .. s end
local out = { sum(t) }
t.k05 = nil out[#out + 1] = sum(t)
t.k05 = 100 out[#out + 1] = sum(t)
for i = 41, 200 do t['k' .. i] = 1 end out[#out + 1] = sum(t)
for i = 41, 200 do t['k' .. i] = nil end out[#out + 1] = sum(t)
return table.concat(out, ' ')`),
    ).toBe("40/820 39/815 40/915 200/1075 40/915");
  });

  it("follows the array border when it moves between walks", async () => {
    expect(
      await resultOf(`${WALK_LUA}
local t = { [false] = 'f' }
for i = 1, 30 do t[i] = i end
for i = 1, 20 do t['s' .. i] = i end
local a = walk(t):sub(1, 12)
t[30] = nil
local b = walk(t):match('29, false')
t[31] = 31
-- t[30] is a hole now: #t may say 29 or 31, and 31 walks after or before false accordingly.
local c = walk(t):match('29, false, 31') or walk(t):match('29, 31, false') or walk(t)
return a .. '| ' .. b .. ' | ' .. c`),
    ).toMatch(/^1, 2, 3, 4, \| 29, false \| 29, (false, 31|31, false)$/);
  });

  it("stays correct when more tables are walked than it keeps, and for weak tables", async () => {
    expect(
      await resultOf(`${WALK_LUA}
local tables = {}
for i = 1, 12 do
  local t = {}
  for j = 1, 20 do t['k' .. (j * i)] = j end
  tables[i] = t
end
local first = {}
for i = 1, 12 do first[i] = walk(tables[i]) end
local same = true
for round = 1, 3 do
  for i = 12, 1, -1 do
    tables[i]['k' .. (1000 + i)] = round
    tables[i]['k' .. (1000 + i)] = nil
    same = same and walk(tables[i]) == first[i]
  end
end
local weak = setmetatable({}, { __mode = 'k' })
local anchor = {}
for j = 1, 30 do weak['w' .. j] = j end
weak[anchor] = 1
return tostring(same) .. ' ' .. walk(weak):sub(1, 11) .. ' ' .. select(2, walk(weak):gsub(',', ''))`),
    ).toBe("true w1, w10, w1 30");
  });

  it("walks a table that is walked inside its own walk", async () => {
    expect(
      await resultOf(`local t = {}
for i = 1, 30 do t['k' .. i] = i end
local pairsSeen, inner = 0, 0
for k in pairs(t) do
  pairsSeen = pairsSeen + 1
  if pairsSeen == 10 then t.new = 1 end
  for _ in pairs(t) do inner = inner + 1 end
end
return pairsSeen .. ' ' .. inner`),
    ).toBe("30 921");
  });
});

describe("the sandbox", () => {
  it("leaves prompt code no way to the raw functions or the order function", async () => {
    await withIterationVm(async (vm) => {
      const outcome = await run(
        vm,
        "return rawget, rawset, rawequal, rawlen, debug, type(pairs), type(next), select('#', pairs({}))",
      );
      expect(outcome.ok && outcome.values).toEqual([
        null,
        null,
        null,
        null,
        null,
        "function",
        "function",
        3,
      ]);
      const privileged = vm.runPrivileged({
        source: "local P = ... return P.iteration_order, P.next ~= next, P.pairs ~= pairs",
        chunkName: "=check",
      });
      expect(privileged.ok && privileged.values).toEqual([null, true, true]);
    });
  });

  it("raises not enough memory for a snapshot past the heap limit, and the VM stays usable", async () => {
    await withIterationVm(
      async (vm) => {
        const outcome = await run(
          vm,
          `local t = {}
for i = 1, 40000 do t['k' .. i] = i end
-- Fill the heap with 100 KB strings up to the limit, then drop one: less than the 640 KB the
-- snapshot of 40000 keys needs stays free.
local ballast = {}
pcall(function() while true do ballast[#ballast + 1] = string.rep('x', 100000) end end)
ballast[#ballast] = nil
local ok, err = pcall(function() for _ in pairs(t) do end end)
ballast = nil
local small = 0
for _ in pairs({ a = 1, b = 2 }) do small = small + 1 end
return tostring(ok) .. ' ' .. tostring(err) .. ' ' .. small`,
        );
        expect(outcome.ok && outcome.values[0]).toBe("false not enough memory 2");
      },
      { luaMemoryBytes: 8_000_000 },
    );
  });
});
