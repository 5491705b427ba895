import { describe, expect, it } from "vitest";
import { loadLuaVmFactory } from "../vm/factory";
import { run, withVm } from "../vm/test-support";
import { installGlobalGuard } from "./install";
import { privileged, resultOf, withGuardedVm } from "./test-support";

describe("installGlobalGuard", () => {
  it("refuses a second install in the same VM and leaves the first one working", async () => {
    await withGuardedVm(async (vm) => {
      await resultOf(vm, "setmetatable(_G, { __index = { tone = 'first' } })");
      expect(() => installGlobalGuard(vm)).toThrow(
        "the _G guard is already installed in this LuaVm",
      );
      expect(await resultOf(vm, "return tone")).toBe("first");
    });
  });

  it("refuses an object that is not a LuaVm of this package", () => {
    const fake = {} as Parameters<typeof installGlobalGuard>[0];
    expect(() => installGlobalGuard(fake)).toThrow("not a LuaVm made by loadLuaVmFactory");
  });

  it("changes nothing but setmetatable, getmetatable, table.concat and _G's metatable", async () => {
    await withVm(async (vm) => {
      const before = vm.globalNames().sort();
      installGlobalGuard(vm);
      expect(vm.globalNames().sort()).toEqual(before);
      const outcome = await run(
        vm,
        "return type(setmetatable), type(getmetatable), type(table.concat)",
      );
      expect(outcome).toEqual({ ok: true, values: ["function", "function", "function"] });
    });
  });

  it("lets Engine Lua read a global the way prompt code does (placeholders)", async () => {
    await withGuardedVm(
      async (vm) => {
        await resultOf(vm, "setmetatable(_G, { __index = { tone = 'friendly' } })");
        expect(privileged(vm, "local _, name = ... return _G[name], prose", ["tone"])).toEqual([
          "friendly",
          "Hi.",
        ]);
      },
      { served: { prose: { read: () => ["Hi."] } } },
    );
  });

  it("installs in each of 200 VMs, and every VM closes cleanly", async () => {
    const factory = await loadLuaVmFactory();
    for (let i = 0; i < 200; i++) {
      const vm = factory.create();
      installGlobalGuard(vm);
      vm.close();
    }
    expect(factory.openVmCount).toBe(0);
  });
});
