import { Worker } from "node:worker_threads";
import { describe, expect, it, vi } from "vitest";
import { type LuaVm, loadLuaVmFactory } from "../lua";
import { testRootScope } from "../test-support/scope";
import { type Scope, ScopeEnded } from "./scope";

const FAILED = {
  kind: "failed",
  error: { kind: "Lua", message: "boom", causes: [], entry: "0.1", section: "A" },
} as const;

/** A stop source that never asks: the tree can stop, and only requestStop stops it. */
const STOPPABLE = { shouldStop: () => false };

/** How a block ended (LuaVm.runBlock). */
type BlockOutcome = Awaited<ReturnType<LuaVm["runBlock"]>>;

/** A loop that ends on its own (so a test of a broken hook fails instead of spinning). */
const SPIN_A_WHILE = "for i = 1, 5000000 do end return 'spun'";

/** A VM of `scope` whose `wait()` suspends the block until the test calls `release`. */
function waitingVm(scope: Scope): { vm: LuaVm; release: () => void } {
  const vm = scope.createVm();
  const pending: (() => void)[] = [];
  vm.setGlobalFunction(
    "wait",
    () => new Promise<undefined>((r) => pending.push(() => r(undefined))),
  );
  return { vm, release: () => pending.shift()?.() };
}

/** Runs `source` in `vm` and lets it reach its first wait (an await adopts a bare Promise). */
async function started(vm: LuaVm, source: string): Promise<{ done: Promise<BlockOutcome> }> {
  const done = vm.runBlock({ source, chunkName: "=test" });
  await Promise.resolve();
  return { done };
}

/** The block's returned values, or its failure reason. */
async function settled(
  outcome: { done: Promise<BlockOutcome> } | Promise<BlockOutcome>,
): Promise<unknown> {
  const done = await ("done" in outcome ? outcome.done : outcome);
  return done.ok ? done.values : done.reason;
}

describe("Scope: the root", () => {
  it("starts open: no ending, signals not aborted, no VMs", async () => {
    const root = await testRootScope();
    expect(root.isRoot).toBe(true);
    expect(root.ending).toBeUndefined();
    expect(root.signal.aborted).toBe(false);
    expect(root.stopSignal.aborted).toBe(false);
    expect(root.liveVmCount).toBe(0);
    expect(root.shouldStop()).toBe(false);
    expect(() => root.checkStop()).not.toThrow();
  });

  it("records the first ending: a failure aborts its signal, not its stop signal", async () => {
    const root = await testRootScope(STOPPABLE);
    root.end(FAILED);
    expect(root.ending).toEqual(FAILED);
    expect(root.signal.aborted).toBe(true);
    expect(root.stopSignal.aborted).toBe(false);
    root.end({ kind: "cancelled" });
    root.requestStop();
    expect(root.ending).toEqual(FAILED);
    expect(root.stopSignal.aborted).toBe(false);
  });

  it("throws ScopeEnded naming the scope from checkStop once it has an ending", async () => {
    const root = await testRootScope();
    root.end({ kind: "cancelled" });
    expect(root.shouldStop()).toBe(true);
    let thrown: unknown;
    try {
      root.checkStop();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ScopeEnded);
    expect((thrown as ScopeEnded).scope).toBe(root);
    expect((thrown as ScopeEnded).message).toBe("the scope has ended");
  });
});

describe("Scope: VMs", () => {
  it("makes VMs with the sources' memory limit and tracks them until closed", async () => {
    const root = await testRootScope({ luaMemoryBytes: 1 << 22 });
    const vm = root.createVm();
    expect(vm.memoryLimit).toBe(1 << 22);
    expect(root.liveVmCount).toBe(1);
    root.closeVm(vm);
    expect(vm.closed).toBe(true);
    expect(root.liveVmCount).toBe(0);
  });

  it("cancels its live VMs when it ends: a waiting block ends cancelled at once", async () => {
    const root = await testRootScope();
    const { vm } = waitingVm(root);
    const outcome = await started(vm, "wait() return 'after'");
    root.end({ kind: "cancelled" });
    expect(await settled(outcome)).toBe("cancelled");
    root.closeVm(vm);
  });

  it("cancels a VM made after it ended (also after a stop)", async () => {
    for (const end of [(s: Scope) => s.end({ kind: "cancelled" }), (s: Scope) => s.requestStop()]) {
      const root = await testRootScope(STOPPABLE);
      end(root);
      const vm = root.createVm();
      expect(vm.cancelled).toBe(true);
      root.closeVm(vm);
    }
  });

  it("arms no count hook in a tree nothing can cancel or stop", async () => {
    const root = await testRootScope();
    const vm = root.createVm();
    expect(
      await settled(vm.runBlock({ source: "for i = 1, 50000 do end", chunkName: "=t" })),
    ).toEqual([]);
    expect(vm.hookCalls).toBe(0);
    root.closeVm(vm);
  });

  it("runs VMs hook-free when the tree's sources are all flags; the stop flag still stops a spin", async () => {
    const flags = new Int32Array(new SharedArrayBuffer(16)); // cancel, stop, started
    const root = await testRootScope({
      cancelFlag: flags,
      cancelFlagIndex: 0,
      stopFlag: flags,
      stopFlagIndex: 1,
    });
    // VMs made once the cancel watchdog runs have no hook (a long-lived host starts it early).
    (await loadLuaVmFactory()).startCancelWatchdog();
    let hookCalls = 1;
    for (let i = 0; i < 500 && hookCalls > 0; i++) {
      const vm = root.createVm();
      await settled(vm.runBlock({ source: "for i = 1, 50000 do end", chunkName: "=t" }));
      hookCalls = vm.hookCalls;
      root.closeVm(vm);
      if (hookCalls > 0) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(hookCalls).toBe(0);
    // Another thread sets the stop flag 20 ms after the block starts spinning.
    const worker = new Worker(
      `const { workerData, parentPort } = require("node:worker_threads");
       const { flags } = workerData;
       parentPort.postMessage("ready");
       Atomics.wait(flags, 2, 0);
       Atomics.wait(flags, 2, 1, 20);
       Atomics.store(flags, 1, 1);`,
      { eval: true, workerData: { flags } },
    );
    try {
      await new Promise((resolve) => worker.once("message", resolve));
      const vm = root.createVm();
      vm.setGlobalFunction("started", () => {
        Atomics.store(flags, 2, 1);
        Atomics.notify(flags, 2);
        return undefined;
      });
      const spin = vm.runBlock({ source: "started() while true do end", chunkName: "=t" });
      expect(await settled(spin)).toBe("cancelled");
      expect(root.shouldStop()).toBe(true);
      expect(root.ending).toEqual({ kind: "stopped" });
      root.closeVm(vm);
    } finally {
      await worker.terminate();
    }
  });

  it("stops a spinning block through the count hook once a stop source asks", async () => {
    let polls = 0;
    const root = await testRootScope({ shouldStop: () => ++polls > 3 });
    const vm = root.createVm();
    expect(await settled(vm.runBlock({ source: SPIN_A_WHILE, chunkName: "=t" }))).toBe("cancelled");
    // The hook only reads the sources: the stop is recorded when the Engine next polls.
    expect(root.ending).toBeUndefined();
    expect(root.shouldStop()).toBe(true);
    expect(root.ending).toEqual({ kind: "stopped" });
    root.closeVm(vm);
  });

  it("passes the run's shouldCancel to every VM's count hook, also in a tree that can stop", async () => {
    for (const stop of [{}, STOPPABLE]) {
      let polls = 0;
      const root = await testRootScope({ ...stop, shouldCancel: () => ++polls > 3 });
      const child = root.fork();
      const vm = child.createVm();
      expect(await settled(vm.runBlock({ source: SPIN_A_WHILE, chunkName: "=t" }))).toBe(
        "cancelled",
      );
      expect(child.shouldStop()).toBe(true);
      expect(root.ending).toEqual({ kind: "cancelled" });
      child.closeVm(vm);
    }
  });
});

describe("Scope: fork and cancel", () => {
  it("ends every descendant as cancelled when a scope ends, whatever its own ending", async () => {
    const root = await testRootScope();
    const child = root.fork();
    const grandchild = child.fork();
    expect(child.isRoot).toBe(false);
    const { vm } = waitingVm(grandchild);
    const outcome = await started(vm, "wait()");
    root.end(FAILED);
    expect(child.ending).toEqual({ kind: "cancelled" });
    expect(grandchild.ending).toEqual({ kind: "cancelled" });
    expect(child.signal.aborted).toBe(true);
    expect(grandchild.signal.aborted).toBe(true);
    expect(await settled(outcome)).toBe("cancelled");
    grandchild.closeVm(vm);
  });

  it("keeps a descendant's own failure when its ancestor ends later", async () => {
    const root = await testRootScope();
    const child = root.fork();
    child.end(FAILED);
    root.end({ kind: "cancelled" });
    expect(child.ending).toEqual(FAILED);
  });

  it("cancels a scope's descendants and nothing else: not its parent, not its siblings", async () => {
    const root = await testRootScope();
    const task = root.fork();
    const sibling = root.fork();
    const arm = task.fork();
    const rootVm = waitingVm(root);
    const siblingVm = waitingVm(sibling);
    const rootOutcome = await started(rootVm.vm, "wait() return 'root'");
    const siblingOutcome = await started(siblingVm.vm, "wait() return 'sibling'");
    task.end({ kind: "cancelled" });
    expect(arm.ending).toEqual({ kind: "cancelled" });
    expect([root.ending, sibling.ending]).toEqual([undefined, undefined]);
    expect([root.signal.aborted, sibling.signal.aborted]).toEqual([false, false]);
    expect(root.shouldStop()).toBe(false);
    rootVm.release();
    siblingVm.release();
    expect(await settled(rootOutcome)).toEqual(["root"]);
    expect(await settled(siblingOutcome)).toEqual(["sibling"]);
    root.closeVm(rootVm.vm);
    sibling.closeVm(siblingVm.vm);
  });

  it("keeps a child's failure its own: the parent goes on", async () => {
    const root = await testRootScope();
    const child = root.fork();
    child.end(FAILED);
    expect(child.ending).toEqual(FAILED);
    expect(child.shouldStop()).toBe(true);
    expect(root.ending).toBeUndefined();
    expect(root.shouldStop()).toBe(false);
    expect(root.fork().ending).toBeUndefined();
  });

  it("forks a child born cancelled from an ended scope, and born stopped from a stopped one", async () => {
    const ended = await testRootScope();
    ended.end(FAILED);
    const born = ended.fork();
    expect(born.ending).toEqual({ kind: "cancelled" });
    expect(born.signal.aborted).toBe(true);
    const stopped = await testRootScope(STOPPABLE);
    stopped.requestStop();
    const bornStopped = stopped.fork();
    expect(bornStopped.ending).toEqual({ kind: "stopped" });
    expect(bornStopped.stopSignal.aborted).toBe(true);
    expect(bornStopped.signal.aborted).toBe(false);
  });
});

describe("Scope: stop", () => {
  it("aborts the stop signal with an AbortError, cancels no VM, and stops every descendant", async () => {
    const root = await testRootScope(STOPPABLE);
    const child = root.fork();
    const { vm } = waitingVm(child);
    const outcome = await started(vm, "wait()");
    root.requestStop();
    expect(root.ending).toEqual({ kind: "stopped" });
    expect(child.ending).toEqual({ kind: "stopped" });
    expect(root.signal.aborted).toBe(false);
    const reason: unknown = child.stopSignal.reason;
    expect(reason).toBeInstanceOf(DOMException);
    expect(reason).toMatchObject({ name: "AbortError", message: "the run was stopped" });
    expect(vm.cancelled).toBe(false);
    child.closeVm(vm);
    expect(await settled(outcome)).toBe("cancelled");
  });

  it("ends a block whose wait outlived the stop before its next instruction", async () => {
    const root = await testRootScope(STOPPABLE);
    const task = root.fork();
    const taskVm = waitingVm(task);
    const rootVm = waitingVm(root);
    const taskOutcome = await started(taskVm.vm, "wait() error('ran after the stop')");
    const rootOutcome = await started(rootVm.vm, "wait() return 'goes on'");
    task.requestStop();
    taskVm.release();
    rootVm.release();
    expect(await settled(taskOutcome)).toBe("cancelled");
    expect(await settled(rootOutcome)).toEqual(["goes on"]);
    task.closeVm(taskVm.vm);
    root.closeVm(rootVm.vm);
  });

  it("lets a cancel replace a stop, reaching the descendants and the live VMs", async () => {
    const root = await testRootScope(STOPPABLE);
    const child = root.fork();
    const { vm } = waitingVm(child);
    const outcome = await started(vm, "wait()");
    root.requestStop();
    root.end({ kind: "cancelled" });
    expect(root.ending).toEqual({ kind: "cancelled" });
    expect(child.ending).toEqual({ kind: "cancelled" });
    expect(child.signal.aborted).toBe(true);
    expect(await settled(outcome)).toBe("cancelled");
    child.closeVm(vm);
  });

  it("keeps a failure that came during a stop a stop, and stops nothing after a cancel", async () => {
    const stopping = await testRootScope(STOPPABLE);
    stopping.requestStop();
    stopping.end(FAILED);
    expect(stopping.ending).toEqual({ kind: "stopped" });
    const cancelled = await testRootScope(STOPPABLE);
    cancelled.end({ kind: "cancelled" });
    cancelled.requestStop();
    expect(cancelled.ending).toEqual({ kind: "cancelled" });
    expect(cancelled.stopSignal.aborted).toBe(false);
  });

  it("refuses a stop in a tree without a stop source", async () => {
    const root = await testRootScope();
    expect(() => root.fork().requestStop()).toThrow(
      "a scope tree without a stop source cannot stop",
    );
  });
});

describe("Scope: the run's sources act on the root", () => {
  it("cancels the root, and so every scope, when the signal aborts", async () => {
    const controller = new AbortController();
    const root = await testRootScope({ signal: controller.signal });
    const child = root.fork();
    controller.abort();
    expect(root.ending).toEqual({ kind: "cancelled" });
    expect(child.ending).toEqual({ kind: "cancelled" });
  });

  it("stops the root when the stop signal aborts", async () => {
    const stop = new AbortController();
    const root = await testRootScope({ stopSignal: stop.signal });
    const child = root.fork();
    stop.abort();
    expect(root.ending).toEqual({ kind: "stopped" });
    expect(child.stopSignal.aborted).toBe(true);
  });

  it("records a cancel flag, shouldCancel or an aborted signal when any scope polls", async () => {
    const flag = new Int32Array(new SharedArrayBuffer(8));
    const aborted = AbortSignal.abort();
    const cases = [
      { cancelFlag: flag, cancelFlagIndex: 1 },
      { shouldCancel: () => true },
      {
        shouldCancel: () => {
          throw new Error("a check that throws asks");
        },
      },
      { signal: aborted },
    ];
    Atomics.store(flag, 1, 1);
    for (const sources of cases) {
      const root = await testRootScope(sources);
      const child = root.fork();
      expect(child.shouldStop()).toBe(true);
      expect(root.ending).toEqual({ kind: "cancelled" });
    }
  });

  it("records a stop flag, shouldStop or an aborted stop signal when any scope polls", async () => {
    const flag = new Int32Array(new SharedArrayBuffer(8));
    Atomics.store(flag, 0, 1);
    const cases = [
      { stopFlag: flag, stopFlagIndex: 0 },
      { shouldStop: () => true },
      { stopSignal: AbortSignal.abort() },
    ];
    for (const sources of cases) {
      const root = await testRootScope(sources);
      const child = root.fork();
      expect(() => child.checkStop()).toThrow(ScopeEnded);
      expect(root.ending).toEqual({ kind: "stopped" });
      expect(child.ending).toEqual({ kind: "stopped" });
    }
  });

  it("still polls the cancel sources while stopping: a cancel replaces the stop", async () => {
    let cancel = false;
    const root = await testRootScope({ shouldCancel: () => cancel, shouldStop: () => true });
    expect(root.shouldStop()).toBe(true);
    expect(root.ending).toEqual({ kind: "stopped" });
    cancel = true;
    expect(root.shouldStop()).toBe(true);
    expect(root.ending).toEqual({ kind: "cancelled" });
  });

  it("does not poll a stop source once the root has ended", async () => {
    let polls = 0;
    const root = await testRootScope({
      shouldStop: () => {
        polls++;
        return true;
      },
    });
    root.end(FAILED);
    expect(root.shouldStop()).toBe(true);
    expect(polls).toBe(0);
    expect(root.ending).toEqual(FAILED);
  });
});

describe("Scope: close", () => {
  it("fixes a closed child's outcome: its parent's later ending does not reach it", async () => {
    const root = await testRootScope();
    const done = root.fork();
    const failed = root.fork();
    failed.end(FAILED);
    done.close();
    failed.close();
    root.end({ kind: "cancelled" });
    expect(done.closed).toBe(true);
    expect(done.ending).toBeUndefined();
    expect(done.signal.aborted).toBe(false);
    expect(failed.ending).toEqual(FAILED);
  });

  it("ends the children still open as cancelled (nothing outlives its scope)", async () => {
    const root = await testRootScope();
    const open = root.fork();
    const nested = open.fork();
    root.close();
    expect(open.ending).toEqual({ kind: "cancelled" });
    expect(nested.ending).toEqual({ kind: "cancelled" });
    expect(root.ending).toBeUndefined();
  });

  it("ignores endings and stops after close, and refuses new VMs and forks", async () => {
    const root = await testRootScope(STOPPABLE);
    root.close();
    root.close();
    root.end(FAILED);
    root.requestStop();
    expect(root.ending).toBeUndefined();
    expect(() => root.createVm()).toThrow("a closed scope cannot create a VM");
    expect(() => root.fork()).toThrow("a closed scope cannot fork");
  });

  it("refuses to close while a VM of the scope is open", async () => {
    const root = await testRootScope();
    const vm = root.createVm();
    expect(() => root.close()).toThrow("a scope closes after its VMs: 1 still open");
    root.closeVm(vm);
    root.close();
    expect(root.closed).toBe(true);
  });

  it("stops listening to the run's signals once the root is closed", async () => {
    const controller = new AbortController();
    const stop = new AbortController();
    const removed = [
      vi.spyOn(controller.signal, "removeEventListener"),
      vi.spyOn(stop.signal, "removeEventListener"),
    ];
    const root = await testRootScope({ signal: controller.signal, stopSignal: stop.signal });
    root.fork().close();
    expect(removed.map((spy) => spy.mock.calls.length)).toEqual([0, 0]);
    root.close();
    for (const spy of removed) expect(spy).toHaveBeenCalledWith("abort", expect.any(Function));
  });
});
