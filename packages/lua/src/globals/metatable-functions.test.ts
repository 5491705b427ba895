import { describe, expect, it } from "vitest";
import { failureOf, privileged, resultOf, valuesAt, withGuardedVm } from "./test-support";

describe("setmetatable and getmetatable on _G", () => {
  it("getmetatable(_G) is nil while the guard is in place and no author metatable is set", async () => {
    await withGuardedVm(async (vm, guard) => {
      expect(guard.hasAuthorMetatable()).toBe(false);
      expect(await valuesAt(vm, "return getmetatable(_G), select('#', getmetatable(_G))")).toEqual([
        null,
        1,
      ]);
      // The guard itself is there: the VM's original getmetatable sees it.
      expect(privileged(vm, "local P = ... return type(P.getmetatable(_G).__index)")).toEqual([
        "function",
      ]);
    });
  });

  it("copies every other field onto the guard, so __len, __concat and __name apply to _G", async () => {
    await withGuardedVm(async (vm, guard) => {
      expect(
        await valuesAt(
          vm,
          `setmetatable(_G, {
             __len = function() return 42 end,
             __concat = function(a, b) return 'joined' end,
             __name = 'Globals',
           })
           return #_G, _G .. 'x', string.match(tostring(_G), '^Globals: ') ~= nil`,
        ),
      ).toEqual([42, "joined", true]);
      expect(guard.hasAuthorMetatable()).toBe(true);
    });
  });

  it("copies at each call: a later edit of a copied field waits for the next setmetatable", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await valuesAt(
          vm,
          `local mt = { __tostring = function() return 'first' end }
           setmetatable(_G, mt)
           mt.__tostring = function() return 'second' end
           local before = tostring(_G)
           setmetatable(_G, mt)
           return before, tostring(_G)`,
        ),
      ).toEqual(["first", "second"]);
    });
  });

  it("reads __index and __newindex live, including ones added after setmetatable", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await valuesAt(
          vm,
          `local mt = {}
           setmetatable(_G, mt)
           local a = tostring(missing)
           mt.__index = { missing = 'now' }
           local sink = {}
           mt.__newindex = sink
           fresh = 1
           mt.__newindex = nil
           other = 2
           return a, missing, sink.fresh, tostring(fresh), other`,
        ),
      ).toEqual(["nil", "now", 1, "nil", 2]);
    });
  });

  it("writes nothing into the author metatable", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await valuesAt(
          vm,
          `local mt = { __index = {}, __call = function() end }
           setmetatable(_G, mt)
           setmetatable(_G, nil)
           local n = 0
           for _ in next, mt do n = n + 1 end
           return n, getmetatable(mt)`,
        ),
      ).toEqual([2, null]);
    });
  });

  it("never triggers the author metatable's own metamethods (fields are read raw)", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await valuesAt(
          vm,
          `local hits = 0
           local mt = setmetatable({}, { __index = function() hits = hits + 1 return { x = 1 } end })
           setmetatable(_G, mt)
           local v = missing_name
           unknown_name = 1
           local shown = tostring(_G)
           return hits, v, unknown_name`,
        ),
      ).toEqual([0, null, 1]);
    });
  });

  it("protection is read live: a __metatable added through getmetatable(_G) protects", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          `setmetatable(_G, {})
getmetatable(_G).__metatable = false
local ok, err = pcall(setmetatable, _G, {})
return tostring(getmetatable(_G)) .. '|' .. err`,
        ),
      ).toBe("false|cannot change a protected metatable");
    });
  });

  it("checks finalizers before __mode, and both before protection", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await valuesAt(
          vm,
          `setmetatable(_G, { __metatable = 'locked' })
           local _, a = pcall(setmetatable, _G, { __gc = true, __mode = 'k' })
           local _, b = pcall(setmetatable, _G, { __mode = 'k' })
           local _, c = pcall(setmetatable, _G, {})
           return a, b, c`,
        ),
      ).toEqual([
        "setmetatable: finalizers (__gc) are not available in the sandbox",
        "setmetatable: weak tables (__mode) are not available for _G",
        "cannot change a protected metatable",
      ]);
    });
  });

  it("calls an __index function with _G and the key, as a tail call", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await valuesAt(
          vm,
          `local seen
setmetatable(_G, { __index = function(t, k) seen = t return k end })
local v = some_key
local ok, err = pcall(function()
  getmetatable(_G).__newindex = function(_, k) error('no new global ' .. k, 2) end
  brand_new = 1
end)
return v, seen == _G, err`,
          30,
        ),
      ).toEqual(["some_key", true, '[string "line 30"]:6: no new global brand_new']);
    });
  });

  it("an __index table is indexed normally, so its own metatable applies", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await valuesAt(
          vm,
          `local defaults = setmetatable({}, { __index = function(_, k) return 'deep ' .. k end })
           setmetatable(_G, { __index = defaults })
           return tone`,
        ),
      ).toEqual(["deep tone"]);
    });
  });

  it("an __index that is neither a function nor a table is indexed like stock Lua", async () => {
    await withGuardedVm(async (vm) => {
      expect(await resultOf(vm, "setmetatable(_G, { __index = 'abc' })\nreturn type(upper)")).toBe(
        "function",
      );
      expect(await failureOf(vm, "setmetatable(_G, { __index = 5 })\nreturn nothing_here")).toMatch(
        /attempt to index a number value/,
      );
    });
  });

  it("a nil or NaN global key is refused as stock Lua refuses it", async () => {
    await withGuardedVm(async (vm) => {
      expect(await failureOf(vm, "_G[nil] = 1")).toBe(`[string "line 1"]:1: table index is nil`);
      expect(await failureOf(vm, "_G[0/0] = 1")).toBe(`[string "line 1"]:1: table index is NaN`);
    });
  });

  it("treats only _G itself specially: a look-alike with __eq is an ordinary table", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await valuesAt(
          vm,
          `local eq = function() return true end
           local fake = setmetatable({}, { __eq = eq })
           local ok, err = pcall(setmetatable, fake, { __mode = 'k' })
           return ok, getmetatable(fake).__mode, fake == _G, getmetatable(_G)`,
        ),
      ).toEqual([true, "k", false, null]);
    });
  });

  it("is stock on other values: strings, numbers, functions, userdata-free cases", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await valuesAt(
          vm,
          `local smt = getmetatable('x')
           local _, e1 = pcall(setmetatable, 'x', {})
           local _, e2 = pcall(setmetatable, print or type, nil)
           return smt.__index == string, getmetatable(1), getmetatable(type), e1, e2`,
        ),
      ).toEqual([
        true,
        null,
        null,
        "bad argument #1 to 'setmetatable' (table expected, got string)",
        "bad argument #1 to 'setmetatable' (table expected, got function)",
      ]);
    });
  });

  it("names the function as stock Lua does at the call site", async () => {
    await withGuardedVm(async (vm) => {
      expect(
        await valuesAt(
          vm,
          `local gm, sm = getmetatable, setmetatable
           local _, a = pcall(function() return gm() end)
           local _, b = pcall(function() return sm(_G, 1) end)
           local _, c = pcall(getmetatable)
           return a, b, c`,
        ),
      ).toEqual([
        `[string "line 1"]:2: bad argument #1 to 'gm' (value expected)`,
        `[string "line 1"]:3: bad argument #2 to 'sm' (nil or table expected, got number)`,
        "bad argument #1 to 'getmetatable' (value expected)",
      ]);
    });
  });
});
