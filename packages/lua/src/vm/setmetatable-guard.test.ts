import { describe, expect, it } from "vitest";
import { values, withVm } from "./test-support";

describe("the setmetatable guard", () => {
  it("refuses a metatable with __gc, on any table, _G included", async () => {
    await withVm(async (vm) => {
      expect(
        await values(
          vm,
          `local a = select(2, pcall(function() setmetatable({}, { __gc = false }) end))
           local b = select(2, pcall(function() setmetatable(_G, { __gc = error }) end))
           return a, b, getmetatable(_G)`,
        ),
      ).toEqual([
        `[string "line 1"]:1: setmetatable: finalizers (__gc) are not available in the sandbox`,
        `[string "line 1"]:2: setmetatable: finalizers (__gc) are not available in the sandbox`,
        null,
      ]);
    });
  });

  it("behaves as stock setmetatable (Lua 5.4.4) otherwise, errors included", async () => {
    await withVm(async (vm) => {
      expect(
        await values(
          vm,
          `local mt = { __index = function(_, k) return k .. '!' end }
           local t = setmetatable({}, mt)
           local same = setmetatable(t, mt) == t
           local locked = setmetatable({}, { __metatable = 'locked' })
           local e1 = select(2, pcall(function() setmetatable(locked, {}) end))
           local e2 = select(2, pcall(function() setmetatable(1, {}) end))
           local e3 = select(2, pcall(function() setmetatable({}, 1) end))
           local e4 = select(2, pcall(setmetatable, {}))
           setmetatable(t, nil)
           return mt.__index(nil, 'x'), same, getmetatable(locked), e1, e2, e3, e4, getmetatable(t)`,
        ),
      ).toEqual([
        "x!",
        true,
        "locked",
        `[string "line 1"]:5: cannot change a protected metatable`,
        `[string "line 1"]:6: bad argument #1 to 'setmetatable' (table expected, got number)`,
        `[string "line 1"]:7: bad argument #2 to 'setmetatable' (nil or table expected, got number)`,
        "bad argument #2 to 'setmetatable' (nil or table expected, got no value)",
        null,
      ]);
    });
  });
});
