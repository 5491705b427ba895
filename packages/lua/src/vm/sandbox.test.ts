import { describe, expect, it } from "vitest";
import { KEPT_LUA_GLOBALS, REMOVED_BASE_GLOBALS } from "./sandbox";
import { values, withVm } from "./test-support";

describe("the sandbox", () => {
  it("leaves exactly the 18 kept Lua globals in _G, read by iterating _G from JS", async () => {
    await withVm((vm) => {
      expect(vm.globalNames().sort()).toEqual([
        "_G",
        "_VERSION",
        "assert",
        "error",
        "getmetatable",
        "ipairs",
        "math",
        "next",
        "pairs",
        "pcall",
        "select",
        "setmetatable",
        "string",
        "table",
        "tonumber",
        "tostring",
        "type",
        "xpcall",
      ]);
      expect(KEPT_LUA_GLOBALS).toHaveLength(18);
      expect([...KEPT_LUA_GLOBALS].sort()).toEqual(vm.globalNames().sort());
    });
  });

  it("reads nil for every name outside the toolkit", async () => {
    const absent = [
      "print",
      "warn",
      "io",
      "os",
      "package",
      "debug",
      "load",
      "loadfile",
      "dofile",
      "collectgarbage",
      "coroutine",
      "rawequal",
      "rawget",
      "rawset",
      "rawlen",
      "require",
      "utf8",
      "unpack",
      "loadstring",
      "module",
    ];
    await withVm(async (vm) => {
      const source = `return ${absent.map((name) => `tostring(${name})`).join(" .. ':' .. ")}`;
      expect(await values(vm, source)).toEqual([absent.map(() => "nil").join(":")]);
      expect(await values(vm, "return tostring(print) .. ':' .. tostring(warn)")).toEqual([
        "nil:nil",
      ]);
    });
  });

  it("fails a call to an absent name with stock Lua's message", async () => {
    await withVm(async (vm) => {
      const outcome = await vm.runBlock({ source: 'print("hi")', chunkName: "line 7" });
      expect(outcome.ok).toBe(false);
      if (outcome.ok) return;
      expect(outcome.message).toBe(
        `[string "line 7"]:1: attempt to call a nil value (global 'print')`,
      );
    });
  });

  it("keeps string, table and math whole, and reports _VERSION", async () => {
    await withVm(async (vm) => {
      expect(
        await values(
          vm,
          "return _VERSION, string.upper('hi'), ('x'):rep(3), table.concat({1, 2}, ','), math.max(1, 5), _G == _G._G",
        ),
      ).toEqual(["Lua 5.4", "HI", "xxx", "1,2", 5, true]);
    });
  });

  it("keeps the removed originals, the coroutine library and string.rep in the private table", async () => {
    await withVm((vm) => {
      const outcome = vm.runPrivileged({
        source: `local P = ...
          local names = {}
          for k in next, P do names[#names + 1] = k end
          table.sort(names)
          return table.concat(names, ','), type(P.coroutine.yield), P.rawget({a = 1}, 'a'),
            P.string_rep('ab', 2), P.string_rep ~= string.rep`,
        chunkName: "engine",
      });
      expect(outcome.ok).toBe(true);
      if (!outcome.ok) return;
      const names = String(outcome.values[0]).split(",");
      for (const name of [...REMOVED_BASE_GLOBALS, "coroutine", "string_rep", "pcall", "next"]) {
        expect(names).toContain(name);
      }
      expect(outcome.values.slice(1)).toEqual(["function", 1, "abab", true]);
    });
  });

  it("seeds math.random from randomSeed (0 by default), so a VM is deterministic", async () => {
    const draw =
      "local t = {} for i = 1, 5 do t[i] = math.random(1000) end return table.concat(t, ',')";
    const first = await withVm((vm) => values(vm, draw));
    const second = await withVm((vm) => values(vm, draw));
    const seeded = await withVm((vm) => values(vm, draw), { randomSeed: 42 });
    const seededAgain = await withVm((vm) => values(vm, draw), { randomSeed: 42n });
    expect(second).toEqual(first);
    expect(seededAgain).toEqual(seeded);
    expect(seeded).not.toEqual(first);
  });

  it("names library functions in tracebacks as stock Lua does", async () => {
    await withVm(async (vm) => {
      const outcome = await vm.runBlock({
        source: "local function f()\n  string.rep()\nend\nf()",
        chunkName: "line 3",
      });
      expect(outcome).toMatchObject({
        ok: false,
        reason: "error",
        message: `[string "line 3"]:2: bad argument #1 to 'rep' (string expected, got no value)`,
        traceback: [
          "stack traceback:",
          "\t[C]: in function 'string.rep'",
          `\t[string "line 3"]:2: in local 'f'`,
          `\t[string "line 3"]:4: in main chunk`,
        ].join("\n"),
      });
    });
  });
});
