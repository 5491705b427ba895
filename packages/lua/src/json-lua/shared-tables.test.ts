import { describe, expect, it } from "vitest";
import { resultOf, withJsonVm } from "./test-support";

/**
 * json.encode copies the text of a large table it meets again in the same call instead of walking
 * it again (encoder.ts, REUSE_MIN_VALUES). Each case compares the shared value's encoding, or its
 * refusal, with that of an unshared deep copy, which the walk visits table by table: `both`
 * returns `same ok` / `same err: {message}`, or `differ` with both texts.
 */
const BOTH = `local function copy(v) if type(v) ~= 'table' then return v end local c = {} for k, x in pairs(v) do c[k] = copy(x) end return c end
local function both(t, opts)
  local ok1, r1 = pcall(json.encode, t, opts)
  local ok2, r2 = pcall(json.encode, copy(t), opts)
  if ok1 ~= ok2 or tostring(r1) ~= tostring(r2) then return 'differ: ' .. tostring(r1):sub(1, 300) .. ' / ' .. tostring(r2):sub(1, 300) end
  if ok1 then return 'same ok' end
  return 'same err: ' .. tostring(r1)
end
local function list(n, f) local t = {} for i = 1, n do t[i] = f(i) end return t end
`;

async function run(source: string): Promise<unknown> {
  return withJsonVm((vm) => resultOf(vm, `${BOTH}${source}`));
}

describe("json.encode of a table met more than once in one call", () => {
  it("writes a table shared at every level of a nest as it writes its unshared copy", async () => {
    expect(
      await run(`local t = list(70, function(i) return i end)
for i = 1, 6 do t = { a = t, b = { t, t }, n = i } end
return both(t) .. '|' .. both(t, { debug = true }) .. '|' .. #json.encode(t)`),
    ).toBe("same ok|same ok|154538");
  });

  it("refuses a nest shared at every level as too large without walking the size budget", async () => {
    // 2^40 places: walked place by place this takes seconds (the size budget is 8,388,608 values).
    expect(
      await run(`local t = {} for i = 1, 40 do t = { t, t } end
local ok, err = pcall(json.encode, t)
local ok2, err2 = pcall(json.encode, t, { debug = true })
return tostring(err) .. '|' .. tostring(err2)`),
    ).toBe("json.encode: value is too large to encode|json.encode: value is too large to encode");
  });

  it("walks a shared table again where it would pass the depth limit, naming the place", async () => {
    expect(
      await run(`local d = list(70, function(i) return i end)
for i = 1, 124 do d = { d } end
return both({ d, { d }, { { d } } }) .. '|' .. both({ d, { d }, { { d } } }, { debug = true })`),
    ).toBe(
      `same err: json.encode: value[3]${"[1]".repeat(126)} is nested more than 127 levels deep|same ok`,
    );
  });

  it("walks a shared table again where its keys would pass the path-key budget", async () => {
    expect(
      await run(`local keys = {} for i = 1, 60000 do keys['k' .. i] = 1 end
local big = {} for i = 1, 50000 do big['b' .. i] = 1 end
big.zz = keys
local ok1 = pcall(json.encode, { a = keys, b = { c = keys } })
local ok2, err2 = pcall(json.encode, { a = keys, b = big })
return tostring(ok1) .. '|' .. tostring(err2)`),
    ).toBe("true|json.encode: value is too large to encode");
  });

  it("walks again a shared table whose text holds a cycle placeholder (debug mode)", async () => {
    expect(
      await run(`local root = {}
local s = list(70, function(i) return i end)
s[71] = root
root[1] = s
root[2] = { s }
local text = json.encode(root, { debug = true })
local inner = json.encode(list(70, function(i) return i end)):sub(2, -2)
local ok, err = pcall(json.encode, root)
return tostring(text == '[[' .. inner .. ',"[cycle]"],[[' .. inner .. ',"[cycle]"]]]') .. '|' .. tostring(err)`),
    ).toBe("true|json.encode: value[1][71] contains itself");
  });

  it("copies shared rows of json.encode_lines and shares one budget across them", async () => {
    expect(
      await run(`local row = list(80, function(i) return 'v' .. i end)
local rows = json.mark_list and json.mark_list(list(20, function() return row end)) or list(20, function() return row end)
local lines = json.encode_lines(rows)
local one = json.encode(row) .. '\\n'
return tostring(lines == string.rep(one, 20))`),
    ).toBe("true");
  });
});
