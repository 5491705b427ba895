import { describe, expect, it } from "vitest";
import { run } from "../vm/test-support";
import { resultOf, WALK_LUA, withIterationVm } from "./test-support";

describe("next", () => {
  it("resumes a key that is not in the table at its sort position, for every key type", async () => {
    expect(
      await resultOf(`local t = { 10, 20, [false] = 'f', [-5] = 'm5', [2.5] = 'h', [40] = 'x', b = 'b', d = 'd',
  [math.huge] = 'inf', ['\\255z'] = 'bad' }
local probes = { {'c'}, {'a'}, {'e'}, {-7}, {0}, {2.25}, {3}, {50}, {true}, {-math.huge},
  {math.huge}, {0/0}, {{}}, {'\\255a'}, {'\\255zz'}, {3.0}, {2.0} }
local out = {}
for _, p in ipairs(probes) do
  local _, v = next(t, p[1])
  out[#out + 1] = tostring(v)
end
return table.concat(out, ' ')`),
    ).toBe("d b inf m5 h h f f m5 inf bad inf inf bad nil f f");
  });

  it("treats an integral float as the integer key, and ends with two nils", async () => {
    expect(
      await resultOf(`local t = { 'a', 'b', [5] = 'e' }
local k1, v1 = next(t, 1.0)
local k2 = next(t, 2.0)
return k1 .. v1 .. ' ' .. math.type(k1) .. ' ' .. k2 .. ' ' .. select('#', next(t, 5)) .. ' ' ..
  select('#', next({})) .. ' ' .. tostring(next({}, nil))`),
    ).toBe("2b integer 5 2 2 nil");
  });

  it("raises Lua's own argument error for a first argument that is not a table", async () => {
    expect(
      await resultOf(`local _, a = pcall(next, 5)
local _, b = pcall(next)
local _, c = pcall(next, 'text', 1)
return a .. '|' .. b .. '|' .. c`),
    ).toBe(
      "bad argument #1 to 'next' (table expected, got number)|" +
        "bad argument #1 to 'next' (table expected, got no value)|" +
        "bad argument #1 to 'next' (table expected, got string)",
    );
  });

  it("visits a key added ahead of the walk and not one added behind it", async () => {
    expect(
      await resultOf(`local t = {}
for i = 1, 30 do t[string.format('k%02d', i)] = i end
local seen = {}
for k in next, t do
  seen[#seen + 1] = k
  if k == 'k10' then t.k10a = true; t.k05a = true end
end
return #seen .. ' ' .. table.concat(seen, ','):match('k10,k10a,k11') .. ' ' .. tostring(table.concat(seen, ','):find('k05a'))`),
    ).toBe("31 k10,k10a,k11 nil");
  });

  it("keeps two interleaved walks of one table apart", async () => {
    expect(
      await resultOf(`${WALK_LUA}
local t = {}
for i = 1, 25 do t['k' .. i] = i end
for i = 1, 5 do t[i] = i end
local a, b = {}, {}
local ka, kb = next(t), next(t)
while ka ~= nil or kb ~= nil do
  if ka ~= nil then a[#a + 1] = tostring(ka); ka = next(t, ka) end
  if kb ~= nil then b[#b + 1] = tostring(kb); kb = next(t, kb); if kb ~= nil then b[#b + 1] = tostring(kb); kb = next(t, kb) end end
end
return tostring(table.concat(a, ', ') == walk(t) and table.concat(b, ', ') == walk(t)) .. ' ' .. #a`),
    ).toBe("true 30");
  });

  it("walks a table with holes to the end, visiting each key once, whatever the loop reads", async () => {
    expect(
      await resultOf(`local t = { [false] = 'f', [true] = 't' }
for i = 1, 12 do t[i] = i end
t[10] = nil
local count, seen = 0, {}
for k in next, t do
  count = count + 1
  seen[k] = (seen[k] or 0) + 1
  local _ = t[11], t[12], t[13], #t
end
local once = true
for k, n in pairs(seen) do once = once and n == 1 end
return count .. ' ' .. tostring(once)`),
    ).toBe("13 true");
  });

  it("reads raw values and never calls __index, __pairs or __len", async () => {
    expect(
      await resultOf(`local t = setmetatable({ 'a', x = 1 }, {
  __index = function() error('index') end, __pairs = function() error('pairs') end,
  __len = function() error('len') end })
local out = {}
for k, v in next, t do out[#out + 1] = tostring(k) .. '=' .. tostring(v) end
return table.concat(out, ' ')`),
    ).toBe("1=a x=1");
  });

  it("walks a large table in the order pairs uses", async () => {
    expect(
      await resultOf(`local t = {}
for i = 1, 3000 do t[i] = i end
for i = 1, 3000 do t['s' .. i] = i; t[-i * 0.5] = i end
t[true] = 1
local a, b = {}, {}
for k in pairs(t) do a[#a + 1] = k end
for k in next, t do b[#b + 1] = k end
local same = #a == #b
for i = 1, #a do same = same and a[i] == b[i] end
return tostring(same) .. ' ' .. #a .. ' ' .. tostring(b[3001]) .. ' ' .. tostring(b[3002])`),
    ).toBe("true 9001 true -1500");
  });

  it("works on weak tables", async () => {
    expect(
      await resultOf(`local t = setmetatable({}, { __mode = 'v' })
local keep = {}
for i = 1, 20 do keep[i] = {}; t['k' .. i] = keep[i] end
local n = 0
for k, v in next, t do n = n + 1 end
return n .. ' ' .. next(t)`),
    ).toBe("20 k1");
  });
});

describe("next against the literal model (the order rebuilt on every call)", () => {
  it("gives the same walk with the kept order as with an order rebuilt every step", async () => {
    await withIterationVm(async (vm) => {
      // Adding and removing a key clears the kept order, so 'rebuilt' re-sorts on every call.
      // Scalar keys only: adding a key may rehash the table, which reorders table-valued keys
      // (their order is Lua's traversal order, not fixed), so the two walks could differ there.
      const outcome = await run(
        vm,
        `local function build(seed)
  math.randomseed(seed)
  local t = {}
  for i = 1, math.random(0, 6) do t[i] = i end
  for _ = 1, math.random(10, 60) do
    local kind = math.random(1, 5)
    if kind == 1 then t[math.random(20, 90)] = 1
    elseif kind == 2 then t[math.random(-90, 0) / 4] = 1
    elseif kind == 3 then t['s' .. math.random(1, 99)] = 1
    elseif kind == 4 then t[math.random(0, 1) == 1] = 1
    else t[-math.random(1, 40)] = 1 end
  end
  return t
end
local function walk(t, seed, rebuilt)
  math.randomseed(seed * 7)
  local seen = {}
  local k = next(t)
  while k ~= nil do
    seen[#seen + 1] = type(k) == 'table' and 'T' or tostring(k)
    if math.type(k) ~= 'integer' or k > 6 then
      local pick = math.random(1, 4)
      if pick == 1 then t[k] = nil end
      if pick == 2 then local ahead = next(t, k) if ahead ~= nil and (math.type(ahead) ~= 'integer' or ahead > 6) then t[ahead] = nil end end
    end
    if rebuilt then t['\\0force'] = true; t['\\0force'] = nil end
    k = next(t, k)
    if #seen > 500 then return 'runaway' end
  end
  return table.concat(seen, ',')
end
local bad = {}
for seed = 1, 150 do
  local kept, fresh = walk(build(seed), seed, false), walk(build(seed), seed, true)
  if kept ~= fresh then bad[#bad + 1] = seed .. ': ' .. kept .. ' / ' .. fresh end
end
return #bad == 0 and 'same' or table.concat(bad, '\\n')`,
      );
      expect(outcome.ok ? outcome.values[0] : outcome.message).toBe("same");
    });
  });
});
