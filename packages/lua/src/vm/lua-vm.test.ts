import { describe, expect, it } from "vitest";
import { loadLuaModule, luaInstanceOf } from "../module";
import { loadLuaVmFactory } from "./factory";
import { LuaKernel } from "./kernel";
import { type LuaVm, VmHandle } from "./lua-vm";
import { openVmState } from "./open-state";
import { LuaPanicError } from "./panic";
import { run, values, withVm } from "./test-support";

describe("LuaVm lifecycle", () => {
  it("refuses every use after close, with a clear error", async () => {
    const factory = await loadLuaVmFactory();
    const vm = factory.create();
    expect(vm.memoryUsed).toBeGreaterThan(0);
    vm.close();
    vm.close(); // idempotent
    expect(vm.closed).toBe(true);
    expect(vm.memoryUsed).toBe(0);
    expect(() => vm.setGlobal("x", 1)).toThrow("this LuaVm is closed");
    expect(() => vm.getGlobal("x")).toThrow("this LuaVm is closed");
    expect(() => vm.runPrivileged({ source: "", chunkName: "x" })).toThrow("this LuaVm is closed");
    await expect(run(vm, "return 1")).rejects.toThrow("this LuaVm is closed");
  });

  it("cannot be closed from inside its own host function", async () => {
    await withVm(async (vm) => {
      vm.setGlobalFunction("closeMe", (call) => {
        call.vm.close();
        return undefined;
      });
      expect(await values(vm, "return pcall(closeMe)")).toEqual([
        false,
        "a LuaVm cannot be closed while Lua code runs on it; close it after the host function returns",
      ]);
      expect(vm.closed).toBe(false);
    });
  });

  it("frees everything: 5,000 create+close cycles leave the wasm heap flat", async () => {
    const factory = await loadLuaVmFactory();
    const fill = (vm: LuaVm): void => {
      vm.setGlobals({
        store: { read: async () => ["x"], write: () => undefined },
        args: "the argument string",
        note: () => ["n"],
      });
    };
    const cycle = async (withBlock: boolean): Promise<void> => {
      const vm = factory.create();
      fill(vm);
      if (withBlock) await values(vm, "local t = {} for i = 1, 50 do t[i] = store.read() .. i end");
      vm.close();
    };
    const open = factory.openVmCount;
    for (let i = 0; i < 500; i++) await cycle(i % 10 === 0);
    const heapAfterWarmUp = factory.wasmMemoryBytes;
    for (let i = 0; i < 5000; i++) await cycle(i % 10 === 0);
    expect(factory.wasmMemoryBytes).toBe(heapAfterWarmUp);
    expect(factory.openVmCount).toBe(open);
  });

  it("marks itself broken after a Lua panic and refuses further use", async () => {
    const module = await loadLuaModule();
    const kernel = new LuaKernel(module, luaInstanceOf(module));
    const vm = new VmHandle(kernel);
    // A second state behind the same facade, reached directly; it is left broken (and leaked).
    const state = openVmState(kernel, {}, vm);
    try {
      expect(() =>
        state.hostOp(() => {
          kernel.pushText(state.L, "raised outside any protected call");
          kernel.x.lua_error(state.L);
        }),
      ).toThrow(new LuaPanicError("raised outside any protected call"));
      expect(state.broken).toBe(true);
      expect(() => state.hostOp(() => 1)).toThrow(
        "this LuaVm is broken after a Lua panic and cannot be used",
      );
    } finally {
      vm.close();
    }
  });
});

describe("globals", () => {
  it("sets, reads and lists globals raw", async () => {
    await withVm(async (vm) => {
      vm.setGlobals({ args: "hi", count: 3 });
      vm.setGlobal("nested", { list: [1, 2] });
      expect(vm.getGlobal("args")).toBe("hi");
      expect(vm.getGlobal("missing")).toBeNull();
      expect(vm.getGlobal("nested")).toEqual({ list: [1, 2] });
      expect(vm.globalNames()).toContain("count");
      expect(await values(vm, "return string.upper(args), count")).toEqual(["HI", 3]);
      // Raw: a _G metatable set by Lua code is bypassed by the host.
      await values(
        vm,
        "setmetatable(_G, { __newindex = function() error('guarded') end, __index = function() return 'meta' end })",
      );
      vm.setGlobal("late", 1);
      expect(vm.getGlobal("late")).toBe(1);
      expect(vm.getGlobal("absent")).toBeNull();
    });
  });
});

describe("runPrivileged", () => {
  it("runs Engine code synchronously with the private table and args, on the main thread", async () => {
    await withVm(async (vm) => {
      const outcome = vm.runPrivileged({
        source: `local P, name = ...
          local raw = P.rawget
          _G[name] = function(t, k) return raw(t, k) end
          return type(P.rawset), name`,
        chunkName: "engine guard",
        args: ["peek"],
      });
      expect(outcome).toEqual({ ok: true, values: ["function", "peek"] });
      expect(await values(vm, "return peek({ a = 1 }, 'a')")).toEqual([1]);
    });
  });

  it("reports errors without a traceback", async () => {
    await withVm((vm) => {
      expect(vm.runPrivileged({ source: "error('setup failed', 0)", chunkName: "engine" })).toEqual(
        {
          ok: false,
          reason: "error",
          error: "setup failed",
          message: "setup failed",
          traceback: "",
        },
      );
      expect(vm.runPrivileged({ source: "return (", chunkName: "engine" })).toMatchObject({
        ok: false,
        reason: "load",
        message: `[string "engine"]:1: unexpected symbol near <eof>`,
      });
    });
  });
});

describe("loadLuaVmFactory", () => {
  it("is memoized and warms up without leaving a VM open", async () => {
    const [first, second] = await Promise.all([loadLuaVmFactory(), loadLuaVmFactory()]);
    expect(second).toBe(first);
    const open = first.openVmCount;
    first.warmUp();
    expect(first.openVmCount).toBe(open);
  });
});
