import { describe, expect, it } from "vitest";
import { loadLuaVmFactory } from "./factory";
import { run, values, withVm } from "./test-support";

const NOT_ENOUGH_MEMORY = {
  ok: false,
  reason: "memory",
  error: "not enough memory",
  message: "not enough memory",
};

describe("the Lua memory limit", () => {
  it("is 64 MiB by default and stops a table bomb with Lua's memory error", async () => {
    await withVm(async (vm) => {
      expect(vm.memoryLimit).toBe(67_108_864);
      const outcome = await run(vm, "local t = {} for i = 1, 1e9 do t[i] = i end");
      expect(outcome).toMatchObject(NOT_ENOUGH_MEMORY);
      expect(vm.memoryUsed).toBeLessThanOrEqual(67_108_864);
      // The state stays usable: the next block runs (the dead table is collected as it goes).
      expect(await values(vm, "local t = {} for i = 1, 1000 do t[i] = i end return #t")).toEqual([
        1000,
      ]);
    });
  });

  it("stops string.rep('x', 2^40) before allocating", async () => {
    await withVm(async (vm) => {
      const before = vm.memoryUsed;
      expect(await run(vm, "return string.rep('x', 2^40)")).toMatchObject(NOT_ENOUGH_MEMORY);
      expect(vm.memoryUsed).toBeLessThan(before + 65_536);
    });
  });

  it("stops many small strings, and pcall can catch the refusal", async () => {
    await withVm(
      async (vm) => {
        expect(
          await run(vm, "local t = {} for i = 1, 1e7 do t[i] = tostring(i) .. 'padding' end"),
        ).toMatchObject(NOT_ENOUGH_MEMORY);
        expect(
          await values(
            vm,
            `local ok, err = pcall(function()
               local t = {} for i = 1, 1e9 do t[i] = i end
             end)
             return ok, err`,
          ),
        ).toEqual([false, "not enough memory"]);
      },
      { luaMemoryBytes: 2_000_000 },
    );
  });

  it("refuses a host function's result that does not fit", async () => {
    await withVm(
      async (vm) => {
        vm.setGlobalFunction("big", () => ["x".repeat(3_000_000)]);
        vm.setGlobalFunction("bigLater", async () => ["y".repeat(3_000_000)]);
        expect(await run(vm, "return big()")).toMatchObject(NOT_ENOUGH_MEMORY);
        expect(await values(vm, "return pcall(bigLater)")).toEqual([false, "not enough memory"]);
      },
      { luaMemoryBytes: 2_000_000 },
    );
  });

  it("accepts limits from 1 byte to 2 GiB only", async () => {
    const factory = await loadLuaVmFactory();
    for (const bad of [0, -1, 1.5, 2 ** 31 + 1, Number.NaN]) {
      expect(() => factory.create({ luaMemoryBytes: bad })).toThrow(
        `luaMemoryBytes must be an integer from 1 to 2147483648, got ${bad}`,
      );
    }
    // Below the setup size every allocation in a block is refused, but the VM still opens.
    await withVm(
      async (vm) => {
        expect(vm.memoryUsed).toBeGreaterThan(1024);
        expect(await run(vm, "return {}")).toMatchObject({ ok: false, reason: "memory" });
      },
      { luaMemoryBytes: 1024 },
    );
  });

  it("keeps the process and other VMs working after a bomb", async () => {
    const factory = await loadLuaVmFactory();
    const bystander = factory.create();
    try {
      await withVm(
        async (vm) => {
          await run(vm, "local s = 'x' while true do s = s .. s end");
        },
        { luaMemoryBytes: 4_000_000 },
      );
      expect(await values(bystander, "return ('ok'):upper()")).toEqual(["OK"]);
    } finally {
      bystander.close();
    }
  });
});
