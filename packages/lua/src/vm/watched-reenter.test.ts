import { beforeAll, describe, expect, it } from "vitest";
import type { LuaState } from "../module";
import type { CancelWatchdog } from "./cancel-watchdog";
import { REENTER_AFTER_MS } from "./cancel-watchdog";
import { LUA_MASKCOUNT } from "./constants";
import { loadLuaVmFactory } from "./factory";
import { type LuaVm, VmHandle } from "./lua-vm";
import { run, withVm } from "./test-support";
import type { VmState } from "./vm-state";

/** Starts the process's cancel watchdog, waits until it runs and returns it. */
async function readyWatchdog(): Promise<CancelWatchdog> {
  const factory = await loadLuaVmFactory();
  factory.startCancelWatchdog();
  const vm = factory.create({ cancelFlag: new Int32Array(new SharedArrayBuffer(8)) });
  const { kernel } = VmHandle.stateOf(vm);
  vm.close();
  const dog = kernel.watchdog;
  if (dog === undefined) throw new Error(`no watchdog: ${kernel.watchdogUnavailable}`);
  for (let i = 0; i < 1000 && !dog.ready; i++) await new Promise((r) => setTimeout(r, 10));
  if (!dog.ready) throw new Error(`the watchdog did not start: ${dog.failure}`);
  return dog;
}

/** The hook function and mask words of thread `L`, as the watchdog writes them. */
function hookWords(state: VmState, dog: CancelWatchdog, L: LuaState): [number, number] {
  const heap = state.kernel.heap.i32();
  return [
    heap[(L + dog.layout.stateHook) >> 2] ?? -1,
    heap[(L + dog.layout.stateHookMask) >> 2] ?? -1,
  ];
}

/**
 * Defines `until_()`, true once `done(state)` holds or after 20 s (a loaded machine may starve
 * the watchdog for a while), and `elapsed()`, the ms since the VM was set up.
 */
function defineUntil(vm: LuaVm, done: (state: VmState) => boolean): () => number {
  const state = VmHandle.stateOf(vm);
  const start = performance.now();
  vm.setGlobalFunction("until_", () => [done(state) || performance.now() - start > 20_000]);
  return () => performance.now() - start;
}

/** A VM whose only cancel source is a flag (watched once the watchdog runs). */
const flagged = () => ({ cancelFlag: new Int32Array(new SharedArrayBuffer(8)) });

/** Spins in Lua until `until_()` holds (checked every 20 000 iterations); returns the count. */
const SPIN = `local n = 0
  repeat for i = 1, 20000 do n = n + 1 end until until_()
  return n`;

describe("re-entering a watched block (lua-vm.md, Tier-up)", () => {
  let dog: CancelWatchdog;
  beforeAll(async () => {
    dog = await readyWatchdog();
  });

  it("re-enters a long resume, backing off, and stays hook-free", async () => {
    await withVm(async (vm) => {
      const state = VmHandle.stateOf(vm);
      expect(state.hooks.mode).toBe("watched");
      const elapsed = defineUntil(vm, (s) => s.watchedReentries >= 3);
      const outcome = await run(vm, SPIN);
      const ms = elapsed();
      expect(outcome).toMatchObject({ ok: true });
      const n = outcome.ok ? Number(outcome.values[0]) : 0;
      expect(n % 20000).toBe(0);
      expect(state.watchedReentries).toBeGreaterThanOrEqual(3);
      // Armings at 25, 50, 100... ms after the watchdog first saw the resume: at most
      // log2(ms / 25) + 1 of them (+1 for an arming that landed as the resume ended).
      expect(state.watchedReentries).toBeLessThanOrEqual(
        Math.floor(Math.log2(ms / REENTER_AFTER_MS)) + 2,
      );
      expect(state.reentries).toBe(0);
      expect(vm.hookCalls).toBe(0); // a one-shot call polls nothing
      expect(state.hooks.armed).toBe(false);
      expect(hookWords(state, dog, state.L)).toEqual([0, 0]);
    }, flagged());
  });

  it("keeps pcall, upvalues and errors across the re-entries", async () => {
    await withVm(async (vm) => {
      const state = VmHandle.stateOf(vm);
      defineUntil(vm, (s) => s.watchedReentries >= 2);
      const source = `local acc = {}
        local ok, n = pcall(function(...)
          local s = select('#', ...)
          repeat for i = 1, 20000 do s = s + 1 end until until_()
          acc[#acc + 1] = s
          return s
        end, 'a', 'b')
        local ok2, err = pcall(function() for i = 1, 1000 do end error('late', 0) end)
        return ok, n % 20000, acc[1] == n, ok2, err`;
      await expect(run(vm, source)).resolves.toMatchObject({
        ok: true,
        values: [true, 2, true, false, "late"],
      });
      expect(state.watchedReentries).toBeGreaterThanOrEqual(2);
    }, flagged());
  });

  it("only clears the one-shot hook where a C function stands between (a sort comparator)", async () => {
    await withVm(async (vm) => {
      const state = VmHandle.stateOf(vm);
      const armings = dog.reentryArmings;
      // Done once an arming came and the hook it set is cleared again.
      defineUntil(
        vm,
        () => dog.reentryArmings > armings && hookWords(state, dog, state.L)[1] === 0,
      );
      const source = `local t = {2, 1}
        table.sort(t, function(a, b)
          local s = 0 repeat for i = 1, 20000 do s = s + 1 end until until_()
          return a < b
        end)
        return t[1], t[2]`;
      await expect(run(vm, source)).resolves.toMatchObject({ ok: true, values: [1, 2] });
      expect(dog.reentryArmings).toBeGreaterThan(armings);
      expect(state.watchedReentries).toBe(0);
      expect(vm.hookCalls).toBe(0);
    }, flagged());
  });

  it("is still cancelled by its flag after re-entries (no re-entry once cancelled)", async () => {
    const options = flagged();
    await withVm(async (vm) => {
      const state = VmHandle.stateOf(vm);
      defineUntil(vm, (s) => s.watchedReentries >= 1);
      vm.setGlobalFunction("cancel", () => {
        Atomics.store(options.cancelFlag, 0, 1);
        return undefined;
      });
      const outcome = await run(vm, `${SPIN.replace("return n", "")} cancel() while true do end`);
      expect(outcome).toMatchObject({ ok: false, reason: "cancelled" });
      expect(state.watchedReentries).toBeGreaterThanOrEqual(1);
      const after = state.watchedReentries;
      await expect(run(vm, "return 1")).resolves.toMatchObject({ ok: false, reason: "cancelled" });
      expect(state.watchedReentries).toBe(after);
    }, options);
  });

  it("leaves a stale one-shot arming harmless: Engine code clears it, a block re-enters once", async () => {
    await withVm(async (vm) => {
      const state = VmHandle.stateOf(vm);
      const { x, hook } = state.kernel;
      // What an arming that lands just after a resume ended leaves: the main thread hooked,
      // its count at 1.
      const stale = () => {
        x.lua_sethook(state.L, hook, LUA_MASKCOUNT, 1000);
        state.kernel.heap.i32()[(state.L + dog.layout.stateHookCount) >> 2] = 1;
      };
      stale();
      expect(vm.runPrivileged({ source: "return 6 * 7", chunkName: "=privileged" })).toEqual({
        ok: true,
        values: [42],
      });
      expect(hookWords(state, dog, state.L)).toEqual([0, 0]);
      expect(state.watchedReentries).toBe(0);
      stale(); // a new block thread inherits it (its count at the period) from the main thread
      await expect(
        run(vm, "local s = 0 for i = 1, 1000 do s = s + i end return s"),
      ).resolves.toEqual({ ok: true, values: [500500] });
      expect(state.watchedReentries).toBe(1);
      expect(hookWords(state, dog, state.L)).toEqual([0, 0]);
      expect(vm.hookCalls).toBe(0);
    }, flagged());
  });

  it("runs blocks that end as the watchdog arms them with the right results", async () => {
    await withVm(async (vm) => {
      const state = VmHandle.stateOf(vm);
      const armings = dog.reentryArmings;
      // Blocks of about REENTER_AFTER_MS each, back to back: some armings land as one ends.
      let start = 0;
      vm.setGlobalFunction("begin", () => {
        start = performance.now();
        return undefined;
      });
      vm.setGlobalFunction("until_", () => [performance.now() - start > REENTER_AFTER_MS + 10]);
      for (let i = 0; i < 40; i++) {
        await expect(run(vm, `begin() ${SPIN}`)).resolves.toMatchObject({ ok: true });
        const [fn, mask] = hookWords(state, dog, state.L);
        expect(fn === 0).toBe(mask === 0); // never traced without a hook to clear it
      }
      expect(dog.reentryArmings).toBeGreaterThan(armings);
      expect(vm.hookCalls).toBe(0);
    }, flagged());
  });
});
