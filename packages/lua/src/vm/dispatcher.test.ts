import { describe, expect, it } from "vitest";
import type { HostCall } from "./host-call";
import { run, values, withVm } from "./test-support";
import { HostError, type LuaValue } from "./values";

describe("sync host functions", () => {
  it("receive their arguments and return their results in order", async () => {
    await withVm(async (vm) => {
      const seen: LuaValue[][] = [];
      vm.setGlobalFunction("echo", (call) => {
        seen.push(call.values());
        return call.values();
      });
      expect(await values(vm, "return echo(1, 'two', nil, {3}, true)")).toEqual([
        1,
        "two",
        null,
        [3],
        true,
      ]);
      expect(await values(vm, "return select('#', echo())")).toEqual([0]);
      expect(seen).toEqual([[1, "two", null, [3], true], []]);
    });
  });

  it("return no values when they return undefined", async () => {
    await withVm(async (vm) => {
      vm.setGlobalFunction("nothing", () => undefined);
      expect(await values(vm, "return select('#', nothing())")).toEqual([0]);
    });
  });

  it("read arguments as Lua converts them", async () => {
    await withVm(async (vm) => {
      let read: LuaValue[] = [];
      vm.setGlobalFunction("probe", (call: HostCall) => {
        read = [
          call.argCount,
          call.type(1),
          call.text(1),
          call.type(1), // text() converts a copy: the argument is still a number
          call.integer(2),
          call.integer(3),
          call.number(4),
          call.text(5),
          call.boolean(5),
          call.boolean(6),
          call.type(9),
          call.value(9),
          call.integer(7), // 2^63: a float with no integer representation
          call.bytes(8),
        ];
        return undefined;
      });
      await values(vm, "probe(12.5, 3.0, '0x10', '2.5', {}, false, 2^63, 'a\\0b')");
      expect(read).toEqual([
        8,
        "number",
        "12.5",
        "number",
        3,
        16,
        2.5,
        null,
        true,
        false,
        "nil",
        null,
        null,
        new Uint8Array([0x61, 0, 0x62]),
      ]);
      await values(vm, "probe(1, math.maxinteger, 2^53 - 1, 2^53)");
      expect(read.slice(4, 7)).toEqual([9223372036854775807n, 9007199254740991, 9007199254740992]);
    });
  });

  it("cannot read their arguments after returning", async () => {
    await withVm(async (vm) => {
      let kept: HostCall | undefined;
      vm.setGlobalFunction("keep", (call) => {
        kept = call;
        return undefined;
      });
      await values(vm, "keep(1)");
      expect(() => kept?.value(1)).toThrow(
        "the arguments of host function 'keep' can only be read before it returns",
      );
    });
  });
});

describe("errors from host functions", () => {
  it("become Lua errors with no position prefix, catchable by pcall", async () => {
    await withVm(async (vm) => {
      vm.setGlobals({
        boom: () => {
          throw new Error("model is down");
        },
        weird: () => {
          throw 42;
        },
        infinite: () => {
          // The number emscripten throws to unwind Lua; a host function's own is still an error.
          throw Number.POSITIVE_INFINITY;
        },
        value: () => {
          throw new HostError({ kind: "tool", message: "nope" });
        },
      });
      expect(
        await values(
          vm,
          `local a, b = pcall(boom) local c, d = pcall(weird) local e, f = pcall(value)
           local g, h = pcall(infinite)
           return a, b, c, d, e, f.kind, f.message, g, h`,
        ),
      ).toEqual([false, "model is down", false, "42", false, "tool", "nope", false, "Infinity"]);
      expect(await run(vm, "boom()")).toEqual({
        ok: false,
        reason: "error",
        error: "model is down",
        message: "model is down",
        traceback: `stack traceback:\n\t[C]: in function 'boom'\n\t[string "line 1"]:1: in main chunk`,
      });
    });
  });

  it("refuse results that cannot cross as Lua errors", async () => {
    await withVm(async (vm) => {
      vm.setGlobals({
        huge: () => [2n ** 70n],
        notArray: () => 5 as unknown as LuaValue[],
      });
      expect(await values(vm, "return pcall(huge)")).toEqual([
        false,
        "1180591620717411303424 is outside Lua's 64-bit integer range",
      ]);
      expect(await values(vm, "return pcall(notArray)")).toEqual([
        false,
        "host function 'notArray' must return an array of results or nothing",
      ]);
    });
  });
});

describe("async host functions", () => {
  it("suspend the block and resume it with the results", async () => {
    await withVm(async (vm) => {
      const order: string[] = [];
      vm.setGlobalFunction("fetch", async (call) => {
        const key = call.text(1);
        order.push(`start ${key}`);
        await new Promise((resolve) => setTimeout(resolve, 1));
        order.push(`end ${key}`);
        return [`value of ${key}`, 2];
      });
      expect(await values(vm, "local a, n = fetch('a') return a .. '|' .. fetch('b'), n")).toEqual([
        "value of a|value of b",
        2,
      ]);
      expect(order).toEqual(["start a", "end a", "start b", "end b"]);
    });
  });

  it("suspend inside pcall, and a rejection is caught by that pcall", async () => {
    await withVm(async (vm) => {
      vm.setGlobals({
        infer: async () => ["answer"],
        down: async () => {
          throw new Error("model is down");
        },
      });
      expect(
        await values(
          vm,
          `local ok, result = pcall(function() return infer("hi") end)
           local ok2, err = pcall(down)
           local ok3, err3 = xpcall(down, function(m) return 'handled: ' .. m end)
           return "pcall:" .. result, ok, ok2, err, ok3, err3`,
        ),
      ).toEqual(["pcall:answer", true, false, "model is down", false, "handled: model is down"]);
    });
  });

  it("raise an uncaught rejection with the traceback at the call", async () => {
    await withVm(async (vm) => {
      vm.setGlobalFunction("down", async () => {
        throw new Error("store unavailable");
      });
      expect(await run(vm, "local x = 1\ndown()")).toEqual({
        ok: false,
        reason: "error",
        error: "store unavailable",
        message: "store unavailable",
        traceback: `stack traceback:\n\t[C]: in function 'down'\n\t[string "line 1"]:2: in main chunk`,
      });
    });
  });

  it("cannot suspend across a C call, such as table.sort's comparator", async () => {
    await withVm(async (vm) => {
      let suspendable: boolean[] = [];
      vm.setGlobalFunction("slow", async (call) => {
        suspendable.push(call.canSuspend);
        return [true];
      });
      vm.setGlobalFunction("probe", (call) => {
        suspendable.push(call.canSuspend);
        return undefined;
      });
      expect(
        await values(
          vm,
          "probe() local ok, err = pcall(table.sort, {3, 1, 2}, function(a, b) return slow() end) return ok, err",
        ),
      ).toEqual([false, "attempt to yield across a C-call boundary"]);
      expect(suspendable).toEqual([true, false]);
      suspendable = [];
      const privileged = vm.runPrivileged({ source: "return pcall(slow)", chunkName: "engine" });
      expect(privileged).toEqual({
        ok: true,
        values: [false, "attempt to yield across a C-call boundary"],
      });
      expect(suspendable).toEqual([false]);
    });
  });

  it("work as library tables and through setTableFunction", async () => {
    await withVm(async (vm) => {
      vm.setGlobal("store", {
        read: async (call: HostCall) => [`text of ${call.text(1)}`],
        size: () => [3],
      });
      vm.setTableFunction("store", "write", () => ["written"]);
      vm.setTableFunction("models", "infer", async () => ["reply"]);
      expect(
        await values(vm, "return store.read('a'), store.size(), store.write(), models.infer()"),
      ).toEqual(["text of a", 3, "written", "reply"]);
      expect(() => vm.setTableFunction("string", "x", () => undefined)).not.toThrow();
      vm.setGlobal("n", 1);
      expect(() => vm.setTableFunction("n", "x", () => undefined)).toThrow(
        "global 'n' is a number, not a table",
      );
    });
  });

  it("name a failing function inside a table by its path", async () => {
    await withVm(async (vm) => {
      vm.setGlobal("store", {
        read: () => {
          throw new Error("no such file");
        },
      });
      const outcome = await run(vm, "store.read('x')");
      expect(outcome).toMatchObject({
        ok: false,
        traceback: `stack traceback:\n\t[C]: in field 'read'\n\t[string "line 1"]:1: in main chunk`,
      });
    });
  });
});
