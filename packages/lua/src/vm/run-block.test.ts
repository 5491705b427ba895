import { describe, expect, it } from "vitest";
import { loadLuaRuntime } from "../runtime";
import { loadLuaVmFactory } from "./factory";
import { run, values, withVm } from "./test-support";

describe("runBlock", () => {
  it("marks the returned values that are Lua floats", async () => {
    await withVm(async (vm) => {
      expect(await run(vm, "return 1, 5.0, 'x', 2.5, 10 // 2")).toEqual({
        ok: true,
        values: [1, 5, "x", 2.5, 5],
        floats: [1, 3],
      });
    });
  });

  it("runs compiled bytecode and source, passing args as ...", async () => {
    const runtime = await loadLuaRuntime();
    const compiled = runtime.compile("local a, b = ...\nreturn a + b, select('#', ...)", "line 14");
    if (!compiled.ok) throw new Error(compiled.diagnostic);
    await withVm(async (vm) => {
      expect(
        await vm.runBlock({ bytecode: compiled.bytecode, chunkName: "line 14", args: [2, 3] }),
      ).toEqual({ ok: true, values: [5, 2] });
      expect(await run(vm, "return ...", ["x", null, true])).toEqual({
        ok: true,
        values: ["x", null, true],
      });
    });
  });

  it("keeps globals between blocks of one VM", async () => {
    await withVm(async (vm) => {
      await values(
        vm,
        "note = 'set in the first block'\nfunction decorate(v) return '<' .. v .. '>' end",
      );
      expect(await values(vm, "return note, decorate('input')")).toEqual([
        "set in the first block",
        "<input>",
      ]);
    });
  });

  it("reports a runtime error with its value, message and traceback at the raise point", async () => {
    await withVm(async (vm) => {
      const outcome = await vm.runBlock({
        source:
          "local function boom()\n  error('deep fault')\nend\nlocal function mid() boom() end\nmid()",
        chunkName: "line 20",
      });
      expect(outcome).toEqual({
        ok: false,
        reason: "error",
        error: `[string "line 20"]:2: deep fault`,
        message: `[string "line 20"]:2: deep fault`,
        traceback: [
          "stack traceback:",
          "\t[C]: in function 'error'",
          `\t[string "line 20"]:2: in upvalue 'boom'`,
          `\t[string "line 20"]:4: in local 'mid'`,
          `\t[string "line 20"]:5: in main chunk`,
        ].join("\n"),
      });
    });
  });

  it("reads non-string error values and describes them", async () => {
    await withVm(async (vm) => {
      expect(await run(vm, "error({ kind = 'tool', message = 'nope' })")).toMatchObject({
        ok: false,
        reason: "error",
        error: { kind: "tool", message: "nope" },
        message: "(error object is a table value)",
      });
      expect(await run(vm, "error(2^53)")).toMatchObject({
        error: 2 ** 53,
        message: "9.007199254741e+15",
      });
      expect(await run(vm, "error()")).toMatchObject({
        error: null,
        message: "(error object is a nil value)",
      });
    });
  });

  it("reports a chunk that does not load as a load failure", async () => {
    await withVm(async (vm) => {
      expect(
        await vm.runBlock({ source: "local secret =\nreturn secret\n", chunkName: "line 14" }),
      ).toEqual({
        ok: false,
        reason: "load",
        error: `[string "line 14"]:2: unexpected symbol near 'return'`,
        message: `[string "line 14"]:2: unexpected symbol near 'return'`,
        traceback: "",
      });
      const outcome = await vm.runBlock({ source: "\u001bLua", chunkName: "line 1" });
      expect(outcome).toMatchObject({ ok: false, reason: "load" });
      if (outcome.ok) return;
      expect(outcome.message).toBe("attempt to load a binary chunk (mode is 't')");
      const garbage = await vm.runBlock({ bytecode: new Uint8Array([1, 2, 3]), chunkName: "x" });
      expect(garbage).toMatchObject({
        ok: false,
        reason: "load",
        message: "attempt to load a text chunk (mode is 'b')",
      });
    });
  });

  it("interleaves two suspended VMs resumed in either order", async () => {
    const factory = await loadLuaVmFactory();
    const first = factory.create();
    const second = factory.create();
    try {
      const gates = new Map<string, (value: string) => void>();
      const wait = (call: { text(i: number): string | null }) =>
        new Promise<[string]>((resolve) => {
          gates.set(call.text(1) ?? "", (value) => resolve([value]));
        });
      first.setGlobalFunction("wait", wait);
      second.setGlobalFunction("wait", wait);
      const a = run(first, "local x = wait('a1') local y = wait('a2') return x .. y");
      const b = run(second, "local x = wait('b1') return x .. '!'");
      await Promise.resolve();
      expect([...gates.keys()]).toEqual(["a1", "b1"]);
      gates.get("b1")?.("B");
      expect(await b).toEqual({ ok: true, values: ["B!"] });
      gates.get("a1")?.("A");
      await new Promise((resolve) => setImmediate(resolve));
      expect([...gates.keys()]).toEqual(["a1", "b1", "a2"]);
      gates.get("a2")?.("2");
      expect(await a).toEqual({ ok: true, values: ["A2"] });
    } finally {
      first.close();
      second.close();
    }
  });

  it("runs two blocks of one VM concurrently, each in its own thread", async () => {
    await withVm(async (vm) => {
      let release: () => void = () => undefined;
      vm.setGlobalFunction(
        "park",
        () =>
          new Promise<undefined>((resolve) => {
            release = () => resolve(undefined);
          }),
      );
      const parked = run(vm, "shared = 1 park() return shared");
      expect(await values(vm, "shared = shared + 1 return shared")).toEqual([2]);
      release();
      expect(await parked).toEqual({ ok: true, values: [2] });
    });
  });

  it("defers a block started from inside a host function until Lua returns", async () => {
    await withVm(async (vm) => {
      const order: string[] = [];
      let nested: Promise<unknown> = Promise.resolve();
      vm.setGlobalFunction("spawn", (call) => {
        nested = call.vm.runBlock({
          source: "log[#log + 1] = 'nested' return #log",
          chunkName: "n",
        });
        return undefined;
      });
      vm.setGlobalFunction("mark", (call) => {
        order.push(String(call.value(1)));
        return undefined;
      });
      const outcome = await values(
        vm,
        "log = {} spawn() log[#log + 1] = 'outer' mark(#log) return #log",
      );
      expect(await nested).toEqual({ ok: true, values: [2] });
      expect(outcome).toEqual([1]);
      expect(order).toEqual(["1"]);
    });
  });

  it("ends a block waiting on a host Promise when the VM is cancelled or closed", async () => {
    const factory = await loadLuaVmFactory();
    const vm = factory.create();
    vm.setGlobalFunction("forever", () => new Promise<undefined>(() => undefined));
    const waiting = run(vm, "local x = 1\nforever()");
    await Promise.resolve();
    vm.cancel();
    expect(await waiting).toEqual({
      ok: false,
      reason: "cancelled",
      error: "cancelled",
      message: "cancelled",
      traceback: `stack traceback:\n\t[C]: in function 'forever'\n\t[string "line 1"]:2: in main chunk`,
    });
    expect(vm.cancelled).toBe(true);
    expect(await run(vm, "return 1")).toMatchObject({
      ok: false,
      reason: "cancelled",
      traceback: "",
    });
    vm.close();

    const other = factory.create();
    other.setGlobalFunction("forever", () => new Promise<undefined>(() => undefined));
    const parked = run(other, "forever()");
    await Promise.resolve();
    other.close();
    expect(await parked).toMatchObject({ ok: false, reason: "cancelled", traceback: "" });
  });

  it("drops the result of a host Promise that settles after cancellation", async () => {
    await withVm(async (vm) => {
      let reject: (error: Error) => void = () => undefined;
      vm.setGlobalFunction(
        "slow",
        () =>
          new Promise<undefined>((_, fail) => {
            reject = fail;
          }),
      );
      const waiting = run(vm, "slow()");
      await Promise.resolve();
      vm.cancel();
      expect(await waiting).toMatchObject({ reason: "cancelled" });
      reject(new Error("late")); // must not surface as an unhandled rejection
      await new Promise((resolve) => setImmediate(resolve));
    });
  });
});

describe("runBlock edge cases", () => {
  it("reports Lua and C stack overflows as ordinary errors", async () => {
    await withVm(async (vm) => {
      const lua = await run(vm, "local function f() return f() + 1 end return f()");
      expect(lua).toMatchObject({ ok: false, reason: "error" });
      if (!lua.ok) expect(lua.message).toContain("stack overflow");
      const c = await run(vm, "local function f() return select(2, pcall(f)) end return f()");
      expect(c).toMatchObject({ ok: true });
      expect(await values(vm, "return 'still fine'")).toEqual(["still fine"]);
    });
  });

  it("lets a host function change globals while its block runs", async () => {
    await withVm(async (vm) => {
      vm.setGlobalFunction("define", (call) => {
        call.vm.setGlobal(String(call.value(1)), call.value(2));
        return undefined;
      });
      expect(await values(vm, "define('answer', 42) return answer")).toEqual([42]);
    });
  });

  it("ends as cancelled when a host function cancels its own VM (hook not armed)", async () => {
    await withVm(async (vm) => {
      vm.setGlobalFunction("stop", (call) => {
        call.vm.cancel();
        return undefined;
      });
      expect(await run(vm, "stop() return 1")).toMatchObject({ ok: false, reason: "cancelled" });
    });
  });

  it("refuses finalizers, which no hook could interrupt", async () => {
    await withVm(async (vm) => {
      expect(
        await values(
          vm,
          `local ok, err = pcall(function() setmetatable({}, { __gc = function() while true do end end }) end)
           local t = setmetatable({}, {})
           getmetatable(t).__gc = function() while true do end end -- too late to mark t
           return ok, err`,
        ),
      ).toEqual([
        false,
        `[string "line 1"]:1: setmetatable: finalizers (__gc) are not available in the sandbox`,
      ]);
    });
  });
});
