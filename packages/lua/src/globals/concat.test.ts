import { describe, expect, it } from "vitest";
import { failureOf, resultOf, setUserdataGlobal, valuesAt, withGuardedVm } from "./test-support";

describe("the sandbox's table.concat", () => {
  it("joins numbers as stock Lua writes them", async () => {
    await withGuardedVm(async (vm) => {
      expect(await resultOf(vm, "return table.concat({ 1, 2.5, 10 // 1, 2^63, -0.0 }, ',')")).toBe(
        "1,2.5,10,9.2233720368548e+18,-0.0",
      );
    });
  });

  it("joins a userdata element through tostring even when its metatable is unreadable", async () => {
    await withGuardedVm(async (vm) => {
      setUserdataGlobal(vm, "handle", "model writer");
      expect(
        await valuesAt(vm, "return getmetatable(handle), table.concat({ 'use', handle }, ' ')"),
      ).toEqual(["locked", "use model writer"]);
    });
  });

  it("joins _G through its author __tostring, and refuses it without one", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await valuesAt(
          vm,
          `local _, before = pcall(table.concat, { _G })
           setmetatable(_G, { __tostring = function() return 'globals' end })
           local joined = table.concat({ _G, 'x' }, '+')
           setmetatable(_G, { __tostring = function() return 'hidden' end, __metatable = 'no' })
           local _, after = pcall(table.concat, { _G })
           return before, joined, after`,
        ),
      ).toEqual([
        expect.stringMatching(/invalid value \(table\) at index 1 in table for 'concat'$/),
        "globals+x",
        expect.stringMatching(/invalid value \(table\) at index 1 in table for 'concat'$/),
      ]);
    });
  });

  it("reads a list through its own __index and __len", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          `local proxy = setmetatable({}, {
             __index = function(_, k) return 'item' .. k end,
             __len = function() return 3 end,
           })
           return table.concat(proxy, '|')`,
        ),
      ).toBe("item1|item2|item3");
    });
  });

  it("takes a number separator and numeric-string bounds, as stock Lua does", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await valuesAt(
          vm,
          "return table.concat({ 'a', 'b', 'c' }, 0), table.concat({ 'a', 'b', 'c' }, '', '2', 3.0)",
        ),
      ).toEqual(["a0b0c", "bc"]);
    });
  });

  it("checks the separator and bounds with stock Lua's argument errors at the calling line", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await valuesAt(
          vm,
          `local _, a = pcall(function() local s = table.concat({}, {}) return s end)
           local _, b = pcall(function() local s = table.concat({}, ',', 1.5) return s end)
           local _, c = pcall(function() local s = table.concat({}, ',', 1, 'x') return s end)
           local _, d = pcall(table.concat, {}, ',', {})
           return a, b, c, d`,
        ),
      ).toEqual([
        `[string "line 1"]:1: bad argument #2 to 'concat' (string expected, got table)`,
        `[string "line 1"]:2: bad argument #3 to 'concat' (number has no integer representation)`,
        `[string "line 1"]:3: bad argument #4 to 'concat' (number expected, got string)`,
        "bad argument #3 to 'concat' (number expected, got table)",
      ]);
    });
  });

  it("raises what a __tostring raises, and refuses a __tostring that returns no string", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await failureOf(
          vm,
          "return table.concat({ setmetatable({}, { __tostring = function() return {} end }) })",
        ),
      ).toMatch(/^runvil\/globals\.lua:\d+: '__tostring' must return a string$/);
      expect(
        await failureOf(
          vm,
          "return table.concat({ setmetatable({}, { __tostring = function() error('no text', 0) end }) })",
        ),
      ).toBe("no text");
    });
  });

  it("stops at the first hole, however far j reaches", async () => {
    await withGuardedVm(async (vm) => {
      expect(await failureOf(vm, "return table.concat({ 'a' }, ',', 1, math.maxinteger)")).toMatch(
        /^runvil\/globals\.lua:\d+: invalid value \(nil\) at index 2 in table for 'concat'$/,
      );
    });
  });

  it("keeps working when prompt code replaces the globals and library fields it relies on", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          `local point = setmetatable({}, { __tostring = function() return 'P' end })
           local concat = table.concat
           tostring, type, pcall, getmetatable, tonumber = nil, nil, nil, nil, nil
           string.format, math.tointeger, table.concat = nil, nil, nil
           getmetatable = nil
           return concat({ 'a', point, 1 }, '-', '1')`,
        ),
      ).toBe("a-P-1");
    });
  });

  it("shows its frames as the helper's own file in tracebacks", async () => {
    await withGuardedVm(async (vm) => {
      const outcome = await vm.runBlock({
        source: "local x = 1\nlocal s = table.concat({ true })\nreturn s",
        chunkName: "line 7",
      });
      if (outcome.ok) throw new Error("the block should fail");
      expect(outcome.traceback).toMatch(/runvil\/globals\.lua:\d+: in function 'table\.concat'/);
      expect(outcome.traceback).toContain('[string "line 7"]:2: in main chunk');
    });
  });
});
