import { describe, expect, it } from "vitest";
import { errorOf, resultOf, withJsonVm } from "./test-support";

describe("json.encode limits", () => {
  it("accepts 127 levels and names the table at level 128 by its path", async () => {
    await withJsonVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          `local function nest(n) local t = {} local cur = t for i = 2, n do cur.k = {} cur = cur.k end return t end
local ok1 = pcall(json.encode, nest(127))
local ok2, err2 = pcall(json.encode, nest(128))
return tostring(ok1) .. '|' .. tostring(tostring(err2) == 'json.encode: value' .. string.rep('.k', 127) .. ' is nested more than 127 levels deep')`,
        ),
      ).toBe("true|true");
    });
  });

  it("spends one byte per string byte, values and keys alike, up to the memory limit", async () => {
    await withJsonVm(
      async (vm) => {
        // 1 MiB: 1048576 string bytes. 1024 copies of a 1024-byte string are within the budget
        // (the text is then too large for the heap: Lua's memory error); one byte more is not.
        expect(
          await resultOf(
            vm,
            `local s = string.rep('x', 1024)
local list = {} for i = 1, 1024 do list[i] = s end
local ok1, err1 = pcall(json.encode, list)
list[1025] = 'y'
local ok2, err2 = pcall(json.encode, list)
list[1025] = nil
list[1024] = { [string.rep('k', 1023)] = 'y' }
local ok3, err3 = pcall(json.encode, list)
list[1024] = { [string.rep('k', 1024)] = 'y' }
local ok4, err4 = pcall(json.encode, list)
return tostring(err1) .. '|' .. tostring(err2) .. '|' .. tostring(err3) .. '|' .. tostring(err4)`,
          ),
        ).toBe(
          "not enough memory|json.encode: value is too large to encode|not enough memory|json.encode: value is too large to encode",
        );
      },
      { luaMemoryBytes: 1024 * 1024 },
    );
  });

  it("counts the string keys of every table on the path, up to 100,000", {
    timeout: 60_000,
  }, async () => {
    await withJsonVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          `local t = {} for i = 1, 99999 do t['k' .. i] = i end
local ok1 = pcall(json.encode, { a = t })
local ok2, err2 = pcall(json.encode, { a = t, b = 1 })
local ok3 = pcall(json.encode, { t, t })
return tostring(ok1) .. '|' .. tostring(err2) .. '|' .. tostring(ok3)`,
        ),
      ).toBe("true|json.encode: value is too large to encode|true");
    });
  });

  it("lets a Lua memory error raised while the result is pushed pass through unchanged", async () => {
    await withJsonVm(
      async (vm) => {
        expect(
          await resultOf(
            vm,
            `local big = string.rep('x', 400000)
local ok, err = pcall(json.encode, { big, big })
return tostring(ok) .. '|' .. tostring(err)`,
          ),
        ).toBe("false|not enough memory");
      },
      { luaMemoryBytes: 1024 * 1024 },
    );
  });
});

describe("json.encode_lines", () => {
  it("encodes a marked list, items each starting again at level 1", async () => {
    await withJsonVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          `local function deep(n) local t = {} local cur = t for i = 2, n do cur[1] = {} cur = cur[1] end return t end
local ok1 = pcall(json.encode_lines, json.array({ deep(127), deep(127) }))
local ok2, err2 = pcall(json.encode_lines, { 1, deep(128) })
return tostring(ok1) .. '|' .. tostring(tostring(err2) == 'json.encode_lines: value[2]' .. string.rep('[1]', 127) .. ' is nested more than 127 levels deep')`,
        ),
      ).toBe("true|true");
    });
  });

  it("checks the list before its items, in debug mode too", async () => {
    await withJsonVm(async (vm) => {
      expect(await errorOf(vm, "json.encode_lines")).toBe(
        "lua|json.encode_lines expects a list, got nil",
      );
      expect(await errorOf(vm, "json.encode_lines, json.null")).toBe(
        "lua|json.encode_lines expects a list, got lightuserdata",
      );
      expect(await errorOf(vm, "json.encode_lines, { [true] = 1, a = 1 }")).toBe(
        "lua|json.encode_lines expects a list, got a table with a boolean key",
      );
      expect(await errorOf(vm, "json.encode_lines, { [{}] = 1, a = 1 }")).toBe(
        "lua|json.encode_lines expects a list, got a table with a string key",
      );
      expect(await errorOf(vm, "json.encode_lines, { 1, [true] = 1 }, { debug = true }")).toBe(
        "lua|json.encode_lines: value has a boolean key",
      );
      expect(await errorOf(vm, "json.encode_lines, { [1] = 1, [3] = 3 }, { debug = true }")).toBe(
        "lua|json.encode_lines: value is missing list item [2]",
      );
      expect(await errorOf(vm, "json.encode_lines, json.array({ a = 1 })")).toBe(
        "lua|json.encode_lines: value has a string key",
      );
      expect(await errorOf(vm, "json.encode_lines, { function() end }, 5")).toBe(
        "lua|json.encode_lines: options must be a table, got integer",
      );
      expect(await errorOf(vm, "json.encode_lines, { 1 }, { debug = 0 }")).toBe(
        "lua|json.encode_lines: option debug must be a boolean, got integer",
      );
    });
  });

  it("writes one line per item, scalars and nulls included", async () => {
    await withJsonVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          "return json.encode_lines({ 1, 'two\\nlines', json.null, { b = 2, a = 1 }, {} })",
        ),
      ).toBe('1\n"two\\nlines"\nnull\n{"a":1,"b":2}\n{}\n');
    });
  });

  it("writes placeholders inside items in debug mode", async () => {
    await withJsonVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          "local list = { 0/0 } list[2] = list return json.encode_lines(list, { debug = true })",
        ),
      ).toBe('"NaN"\n"[cycle]"\n');
    });
  });
});
