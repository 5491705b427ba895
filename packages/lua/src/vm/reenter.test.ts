import { describe, expect, it } from "vitest";
import { REENTER_INSTRUCTIONS, WATCHDOG_START_HOOK_CALLS } from "./hook-control";
import { VmHandle } from "./lua-vm";
import { run, values, withVm } from "./test-support";

// This file's module graph (and so its kernel) is its own: the watchdog has not started when
// the first test runs.

/** A polled in-thread check keeps the VM in `hook` mode for good (a deadline). */
const polled = { shouldCancel: () => false, hookInstructions: 1000 };

/** About 3 instructions per iteration: enough for several re-entries. */
const LONG = Math.ceil((REENTER_INSTRUCTIONS * 4) / 3);

describe("re-entering the interpreter while a block runs hooked (lua-vm.md, Tier-up)", () => {
  it("yields a long block and resumes it at once, with the same result", async () => {
    await withVm(async (vm) => {
      const state = VmHandle.stateOf(vm);
      expect(state.hooks.mode).toBe("hook");
      const source = `local function add(n, i) return n + i end
        local n = 0 for i = 1, ${LONG} do n = add(n, i % 7) end return n`;
      let expected = 0;
      for (let i = 1; i <= LONG; i++) expected += i % 7;
      await expect(values(vm, source)).resolves.toEqual([expected]);
      expect(state.reentries).toBeGreaterThanOrEqual(2);
    }, polled);
  });

  it("keeps the Lua state across the yield: pcall, upvalues, varargs, an error after it", async () => {
    await withVm(async (vm) => {
      const state = VmHandle.stateOf(vm);
      const source = `local acc = {}
        local ok, n = pcall(function(...)
          local s = select('#', ...)
          for i = 1, ${LONG} do s = s + 1 end
          acc[#acc + 1] = s
          return s
        end, 'a', 'b')
        local ok2, err = pcall(function() for i = 1, ${LONG} do end error('late', 0) end)
        return ok, n, acc[1], ok2, err`;
      await expect(values(vm, source)).resolves.toEqual([true, LONG + 2, LONG + 2, false, "late"]);
      expect(state.reentries).toBeGreaterThanOrEqual(2);
    }, polled);
  });

  it("does not yield where a C function stands between (a sort comparator)", async () => {
    await withVm(async (vm) => {
      const state = VmHandle.stateOf(vm);
      const source = `local t = {2, 1}
        table.sort(t, function(a, b) local s = 0 for i = 1, ${LONG} do s = s + 1 end return a < b end)
        return t[1], t[2]`;
      await expect(values(vm, source)).resolves.toEqual([1, 2]);
      expect(state.reentries).toBe(0);
    }, polled);
  });

  it("is still cancelled by its check after re-entries, and the block is not resumed", async () => {
    let polls = 0;
    await withVm(
      async (vm) => {
        const state = VmHandle.stateOf(vm);
        const outcome = await run(vm, "local n = 0 while true do n = n + 1 end");
        expect(outcome).toMatchObject({ ok: false, reason: "cancelled" });
        expect(state.reentries).toBeGreaterThanOrEqual(1);
      },
      {
        ...polled,
        shouldCancelEvery: 1,
        shouldCancel: () => ++polls > WATCHDOG_START_HOOK_CALLS * 10,
      },
    );
  });

  it("re-enters once when a watchable VM switches to hook-free, then runs unhooked", async () => {
    const flag = new Int32Array(new SharedArrayBuffer(8));
    await withVm(
      async (vm) => {
        const state = VmHandle.stateOf(vm);
        const dog = state.kernel.watchdog;
        if (dog === undefined) return; // no shared memory here: covered by the fallback tests
        // ~1.4 million instructions: starts the watchdog, ends long before a thread can boot.
        await run(vm, "local n = 0 for i = 1, 700000 do n = n + 1 end return n");
        expect(dog.requested).toBe(true);
        for (let i = 0; i < 1000 && !dog.ready; i++) {
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        expect(state.hooks.mode).toBe("hook");
        const before = state.reentries;
        const loop = "local n = 0 for i = 1, 1000000 do n = n + 1 end return n";
        await expect(run(vm, loop)).resolves.toMatchObject({ ok: true, values: [1000000] });
        expect(state.hooks.mode).toBe("watched");
        expect(state.reentries - before).toBe(1);
        Atomics.store(flag, 0, 1);
        await expect(run(vm, "while true do end")).resolves.toMatchObject({
          ok: false,
          reason: "cancelled",
        });
      },
      { cancelFlag: flag },
    );
  });
});
