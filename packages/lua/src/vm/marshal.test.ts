import { describe, expect, it } from "vitest";
import { values, withVm } from "./test-support";
import { LuaOpaque, type LuaValue } from "./values";

/** Pushes `value` as global `v`, then reads `v` back. */
async function roundTrip(value: LuaValue): Promise<LuaValue> {
  return withVm((vm) => {
    vm.setGlobal("v", value);
    return vm.getGlobal("v");
  });
}

describe("marshalling scalars", () => {
  it("keeps 64-bit integers exact, as numbers when safe and bigints otherwise", async () => {
    expect(await roundTrip(42)).toBe(42);
    expect(await roundTrip(-(2 ** 53) + 1)).toBe(-(2 ** 53) + 1);
    expect(await roundTrip(2n ** 53n + 1n)).toBe(2n ** 53n + 1n);
    expect(await roundTrip(2n ** 63n - 1n)).toBe(9223372036854775807n);
    expect(await roundTrip(-(2n ** 63n))).toBe(-9223372036854775808n);
    expect(await roundTrip(7n)).toBe(7);
    await expect(roundTrip(2n ** 63n)).rejects.toThrow(
      "9223372036854775808 is outside Lua's 64-bit integer range",
    );
  });

  it("pushes integral numbers as Lua integers and the rest as floats", async () => {
    await withVm(async (vm) => {
      vm.setGlobals({ i: 3, f: 3.5, z: -0, big: 2 ** 60, inf: Number.POSITIVE_INFINITY });
      expect(
        await values(
          vm,
          "return math.type(i), math.type(f), math.type(z), 1/z, math.type(big), inf, z",
        ),
      ).toEqual(["integer", "float", "float", Number.NEGATIVE_INFINITY, "float", Infinity, -0]);
      expect(await values(vm, "return 0/0")).toEqual([Number.NaN]);
    });
  });

  it("reads nil as null, booleans, and strings as UTF-8 text or bytes", async () => {
    expect(await roundTrip(null)).toBeNull();
    expect(await roundTrip(undefined)).toBeNull();
    expect(await roundTrip(true)).toBe(true);
    expect(await roundTrip("a\u0000é🙂")).toBe("a\u0000é🙂");
    expect(await roundTrip(new Uint8Array([0xff, 0x41]))).toBe("\ufffdA");
    await withVm(async (vm) => {
      vm.setGlobal("b", new Uint8Array([0xff, 0x00]));
      expect(await values(vm, "return #b, b:byte(1), b:byte(2)")).toEqual([2, 255, 0]);
    });
  });
});

describe("marshalling tables", () => {
  it("turns arrays and objects into tables and back", async () => {
    const value = { list: [1, "two", [3]], nested: { deep: { x: 1.5 } }, flag: false };
    expect(await roundTrip(value)).toEqual(value);
    await withVm(async (vm) => {
      vm.setGlobal("t", value);
      expect(await values(vm, "return #t.list, t.list[2], t.nested.deep.x, t.flag")).toEqual([
        3,
        "two",
        1.5,
        false,
      ]);
    });
  });

  it("reads a table as an array only when its keys are exactly 1..n", async () => {
    await withVm(async (vm) => {
      expect(
        await values(
          vm,
          "return {10, 20}, {}, {[2] = 'b', [1] = 'a'}, {1, nil, 3}, {[0] = 'z'}, {1, x = 2}",
        ),
      ).toEqual([[10, 20], {}, ["a", "b"], { 1: 1, 3: 3 }, { 0: "z" }, { 1: 1, x: 2 }]);
    });
  });

  it("writes float and boolean keys as Lua text", async () => {
    await withVm(async (vm) => {
      expect(await values(vm, "return {[1.5] = 'f', [true] = 't', [2^63] = 'big'}")).toEqual([
        { "1.5": "f", true: "t", "9.2233720368548e+18": "big" },
      ]);
    });
  });

  it("reads functions, threads and userdata as opaque markers", async () => {
    await withVm(async (vm) => {
      const [fn, str] = await values(vm, "return function() end, string");
      expect(fn).toBeInstanceOf(LuaOpaque);
      expect((fn as LuaOpaque).type).toBe("function");
      expect((str as Record<string, LuaValue>).rep).toBeInstanceOf(LuaOpaque);
    });
  });

  it("refuses cycles both ways", async () => {
    const cyclic: Record<string, LuaValue> = {};
    (cyclic as { self?: LuaValue }).self = cyclic;
    await expect(roundTrip(cyclic)).rejects.toThrow("cannot push a value that contains itself");
    await withVm(async (vm) => {
      const outcome = await vm.runBlock({
        source: "local t = {} t.t = t return t",
        chunkName: "line 1",
      });
      expect(outcome).toEqual({
        ok: false,
        reason: "error",
        error: "cannot read a Lua table that contains itself",
        message: "cannot read a Lua table that contains itself",
        traceback: "",
      });
    });
  });

  it("allows shared (not cyclic) references", async () => {
    const shared = [1];
    expect(await roundTrip({ a: shared, b: shared })).toEqual({ a: [1], b: [1] });
  });

  it("refuses nesting deeper than 200 levels", async () => {
    let deep: LuaValue = [];
    for (let i = 0; i < 201; i++) deep = [deep];
    await expect(roundTrip(deep)).rejects.toThrow(
      "cannot push a value nested more than 200 levels deep",
    );
  });

  it("leaves the VM usable after a refused push", async () => {
    await withVm(async (vm) => {
      expect(() => vm.setGlobal("bad", 2n ** 64n)).toThrow(RangeError);
      vm.setGlobal("good", 1);
      expect(await values(vm, "return good, bad")).toEqual([1, null]);
    });
  });
});
