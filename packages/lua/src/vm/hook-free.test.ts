import { Worker } from "node:worker_threads";
import { beforeAll, describe, expect, it } from "vitest";
import { loadLuaVmFactory } from "./factory";
import { type LuaVm, type LuaVmOptions, VmHandle } from "./lua-vm";
import { run, withVm } from "./test-support";

/** Starts the process's cancel watchdog and waits until it runs. */
async function watchdogReady(): Promise<void> {
  const factory = await loadLuaVmFactory();
  factory.startCancelWatchdog();
  const vm = factory.create({ cancelFlag: new Int32Array(new SharedArrayBuffer(8)) });
  const { kernel } = VmHandle.stateOf(vm);
  vm.close();
  const dog = kernel.watchdog;
  if (dog === undefined) throw new Error(`no watchdog: ${kernel.watchdogUnavailable}`);
  for (let i = 0; i < 1000 && !dog.ready; i++) await new Promise((r) => setTimeout(r, 10));
  if (!dog.ready) throw new Error(`the watchdog did not start: ${dog.failure}`);
}

/**
 * A thread that sets `flag[index]` 20 ms after the block calls `started()` (the VM's thread is
 * then spinning in Lua and can run nothing else).
 */
async function setterThread(flag: Int32Array, index: number): Promise<Worker> {
  const worker = new Worker(
    `const { workerData, parentPort } = require("node:worker_threads");
     const { flag, index } = workerData;
     parentPort.postMessage("ready");
     Atomics.wait(flag, 1, 0);
     Atomics.wait(flag, 1, 1, 20);
     Atomics.store(flag, index, 1);`,
    { eval: true, workerData: { flag, index } },
  );
  await new Promise((resolve) => worker.once("message", resolve));
  return worker;
}

/** Runs `source` with `started()` defined, while a thread sets the flag after it is called. */
async function spinUntilFlag(
  source: string,
  options: (flag: Int32Array) => LuaVmOptions,
  index = 0,
  use: (vm: LuaVm) => Promise<unknown> = async (vm) => run(vm, source),
): Promise<{ outcome: unknown; vm: LuaVm }> {
  const flag = new Int32Array(new SharedArrayBuffer(16));
  const worker = await setterThread(flag, index);
  try {
    return await withVm(async (vm) => {
      expect(VmHandle.stateOf(vm).hooks.mode).toBe("watched");
      vm.setGlobalFunction("started", () => {
        Atomics.store(flag, 1, 1);
        Atomics.notify(flag, 1);
        return undefined;
      });
      const outcome = await use(vm);
      return { outcome, vm };
    }, options(flag));
  } finally {
    await worker.terminate();
  }
}

describe("hook-free cancellation (the watchdog arms the hook)", () => {
  beforeAll(watchdogReady);

  it("runs a VM whose only source is a flag with no hook until the flag is set", async () => {
    await withVm(
      async (vm) => {
        expect(VmHandle.stateOf(vm).hooks.mode).toBe("watched");
        const outcome = await run(vm, "local n = 0 for i = 1, 200000 do n = n + i end return n");
        expect(outcome).toMatchObject({ ok: true, values: [20000100000] });
        expect(vm.hookCalls).toBe(0);
      },
      { cancelFlag: new Int32Array(new SharedArrayBuffer(8)) },
    );
  });

  it("keeps the hook armed for a shouldCancel without flags (a deadline must be polled)", async () => {
    await withVm(
      async (vm) => {
        expect(VmHandle.stateOf(vm).hooks.mode).toBe("hook");
        await run(vm, "local n = 0 for i = 1, 200000 do n = n + i end return n");
        expect(vm.hookCalls).toBeGreaterThan(0);
      },
      { shouldCancel: () => false },
    );
  });

  const spins: [string, string][] = [
    ["`while true do end`", "started() while true do end"],
    ["a numeric for loop", "started() local n = 0 for i = 1, math.huge do n = n + 1 end"],
    ["a spin inside pcall", "started() pcall(function() while true do end end) return 'swallowed'"],
    [
      "a spin inside xpcall with a handler",
      "started() xpcall(function() while true do end end, function() return 'handled' end) return 'swallowed'",
    ],
    [
      "a spin inside a gsub callback",
      "started() local s = string.gsub('abc', '%w', function(c) while true do end end) return s",
    ],
    [
      "a spin inside a sort comparator",
      "started() local t = {3, 1, 2} table.sort(t, function(a, b) while true do end end) return t[1]",
    ],
    [
      "a spin in a function called from the loop",
      "local function f(n) return n + 1 end started() local n = 0 while true do n = f(n) end",
    ],
  ];
  for (const [name, source] of spins) {
    it(`stops ${name} when another thread sets the cancel flag`, async () => {
      const { outcome, vm } = await spinUntilFlag(source, (flag) => ({ cancelFlag: flag }));
      expect(outcome).toMatchObject({ ok: false, reason: "cancelled" });
      expect(vm.cancelled).toBe(true);
      expect(vm.hookCalls).toBeGreaterThan(0);
    });
  }

  it("stops a spin when a declared shouldCancel flag is set (a stop flag)", async () => {
    const { outcome } = await spinUntilFlag(
      "started() while true do end",
      (flag) => ({
        shouldCancel: () => Atomics.load(flag, 2) !== 0,
        shouldCancelFlags: [{ flag, index: 2 }],
        shouldCancelEvery: 1,
      }),
      2,
    );
    expect(outcome).toMatchObject({ ok: false, reason: "cancelled" });
  });

  it("stops a spin in a coroutine made by the private coroutine.create", async () => {
    const { outcome } = await spinUntilFlag(
      "",
      (flag) => ({ cancelFlag: flag }),
      0,
      async (vm) =>
        vm.runPrivileged({
          source: `local P = ...
            local co = P.coroutine.create(function() started() while true do end end)
            local ok, err = P.coroutine.resume(co)
            return 'resumed', ok, err`,
          chunkName: "line 1",
        }),
    );
    expect(outcome).toMatchObject({ ok: false, reason: "cancelled" });
  });

  it("stops the block once cancel() was called from one of its host functions", async () => {
    await withVm(
      async (vm) => {
        vm.setGlobalFunction("cancel_me", () => {
          vm.cancel();
          return undefined;
        });
        const outcome = await run(vm, "cancel_me() while true do end");
        expect(outcome).toMatchObject({ ok: false, reason: "cancelled" });
      },
      { cancelFlag: new Int32Array(new SharedArrayBuffer(8)) },
    );
  });

  it("arms blocks started after the flag was set and keeps the VM usable for reads", async () => {
    const flag = new Int32Array(new SharedArrayBuffer(8));
    await withVm(
      async (vm) => {
        Atomics.store(flag, 0, 1);
        const outcome = await run(vm, "while true do end");
        expect(outcome).toMatchObject({ ok: false, reason: "cancelled" });
        expect(vm.memoryUsed).toBeGreaterThan(0);
      },
      { cancelFlag: flag },
    );
  });

  it("lists and unlists block threads, so many blocks leave no watched thread behind", async () => {
    const factory = await loadLuaVmFactory();
    const flag = new Int32Array(new SharedArrayBuffer(8));
    for (let v = 0; v < 20; v++) {
      const vm = factory.create({ cancelFlag: flag });
      for (let b = 0; b < 50; b++) {
        await expect(run(vm, "return 1")).resolves.toMatchObject({ ok: true });
      }
      vm.close();
    }
    const vm = factory.create({ cancelFlag: flag });
    expect(VmHandle.stateOf(vm).hooks.mode).toBe("watched");
    vm.close();
  });
});

describe("the hook layout probe", () => {
  it("finds lua_State's hook fields and CallInfo's trap on this build, verified by lua_sethook", async () => {
    const factory = await loadLuaVmFactory();
    const vm = factory.create();
    const { kernel } = VmHandle.stateOf(vm);
    vm.close();
    expect(kernel.watchdogUnavailable).toBeUndefined();
    expect(kernel.watchdog).toBeDefined();
  });
});
