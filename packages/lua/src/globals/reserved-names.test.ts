import { describe, expect, it } from "vitest";
import { loadLuaRuntime } from "../runtime";
import { KEPT_LUA_GLOBALS } from "../vm/sandbox";
import {
  ABSENT_LUA_NAMES,
  CONDITIONAL_ENGINE_GLOBALS,
  ENGINE_GLOBALS,
  GUARD_SERVED_GLOBALS,
  isReservedName,
  LUA_KEYWORDS,
  preludeReservedNameMessage,
  RESERVED_NAMES,
  reservedNameClass,
} from "./reserved-names";
import { resultOf, standInEngineGlobals, valuesAt, withGuardedVm } from "./test-support";

describe("the reserved-name list", () => {
  it("holds 62 distinct names: 21 Engine globals, 18 Lua globals and 23 Lua keywords", () => {
    expect(RESERVED_NAMES).toHaveLength(62);
    expect(new Set(RESERVED_NAMES.map((entry) => entry.name)).size).toBe(62);
    const count = (cls: string) => RESERVED_NAMES.filter((entry) => entry.class === cls).length;
    expect([count("Engine global"), count("Lua global"), count("Lua keyword")]).toEqual([
      21, 18, 23,
    ]);
    expect(RESERVED_NAMES.slice(0, 5).map((entry) => entry.name)).toEqual([
      "args",
      "argv",
      "sys",
      "var",
      "prose",
    ]);
    expect(Object.isFrozen(RESERVED_NAMES)).toBe(true);
  });

  it("classes each name", () => {
    expect(
      ["store", "item", "pairs", "_G", "_VERSION", "global", "goto", "print", "coroutine"].map(
        reservedNameClass,
      ),
    ).toEqual([
      "Engine global",
      "Engine global",
      "Lua global",
      "Lua global",
      "Lua global",
      "Lua keyword",
      "Lua keyword",
      undefined,
      undefined,
    ]);
    expect(isReservedName("messages")).toBe(true);
    expect(isReservedName("web_fetch")).toBe(false);
    expect(CONDITIONAL_ENGINE_GLOBALS.every((name) => ENGINE_GLOBALS.includes(name))).toBe(true);
    expect(GUARD_SERVED_GLOBALS.every((name) => ENGINE_GLOBALS.includes(name))).toBe(true);
    expect(ABSENT_LUA_NAMES.some(isReservedName)).toBe(false);
  });

  it("words the prelude refusal with the class's {kind} phrase", () => {
    expect(preludeReservedNameMessage("kit", "tools")).toBe(
      "Pack `kit`: its prelude defines the global `tools`, which is reserved as an Engine global",
    );
    expect(preludeReservedNameMessage("kit", "pairs")).toBe(
      "Pack `kit`: its prelude defines the global `pairs`, which is reserved as a Lua standard-library global",
    );
    expect(preludeReservedNameMessage("kit", "global")).toBe(
      "Pack `kit`: its prelude defines the global `global`, which is reserved as a Lua keyword",
    );
    expect(preludeReservedNameMessage("kit", "web_fetch")).toBeUndefined();
  });

  it("matches the globals of a fully set-up VM exactly", async () => {
    await withGuardedVm(
      async (vm) => {
        vm.setGlobals(standInEngineGlobals());
        const globals = [...ENGINE_GLOBALS, ...KEPT_LUA_GLOBALS];
        const reads = await valuesAt(
          vm,
          `local missing = {}
           for _, name in ipairs({ ${globals.map((name) => `'${name}'`).join(", ")} }) do
             if _G[name] == nil then missing[#missing + 1] = name end
           end
           local absent = {}
           for _, name in ipairs({ ${ABSENT_LUA_NAMES.map((name) => `'${name}'`).join(", ")} }) do
             if _G[name] ~= nil then absent[#absent + 1] = name end
           end
           local listed = {}
           for name in next, _G do listed[#listed + 1] = name end
           table.sort(listed)
           return table.concat(missing, ','), table.concat(absent, ','), table.concat(listed, ',')`,
        );
        const raw = globals.filter((name) => !GUARD_SERVED_GLOBALS.includes(name));
        expect(reads).toEqual(["", "", [...raw].sort().join(",")]);
      },
      {
        served: Object.fromEntries(
          GUARD_SERVED_GLOBALS.map((name) => [name, { read: () => [name] }]),
        ),
      },
    );
  });

  it("keeps keywords out of _G and lets reserved global names be locals", async () => {
    const runtime = await loadLuaRuntime();
    await withGuardedVm(async (vm) => {
      expect(
        await resultOf(
          vm,
          `for _, kw in ipairs({ ${LUA_KEYWORDS.map((name) => `'${name}'`).join(", ")} }) do
             if _G[kw] ~= nil then return kw end
           end
           local store, pairs, global = 1, 2, 3
           return store + pairs + global`,
        ),
      ).toBe(6);
    });
    const compiles = (source: string) => runtime.compile(source, "line 1").ok;
    expect(LUA_KEYWORDS.filter((kw) => compiles(`local ${kw} = 1`))).toEqual(["global"]);
  });
});
