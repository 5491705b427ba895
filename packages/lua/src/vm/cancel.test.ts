import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { CancelWatch } from "./cancel";
import { run, values, withVm } from "./test-support";

/** A cancel flag over shared memory, as another thread would hold it. */
function sharedFlag(): Int32Array {
  return new Int32Array(new SharedArrayBuffer(8));
}

/** A deadline `ms` milliseconds after its first check, for shouldCancel. */
function deadline(ms: number): () => boolean {
  let end: number | undefined;
  return () => {
    end ??= performance.now() + ms;
    return performance.now() > end;
  };
}

describe("cancellation by the count hook", () => {
  it("stops `while true do end` through shouldCancel (an in-thread deadline)", async () => {
    await withVm(
      async (vm) => {
        const outcome = await vm.runBlock({
          source: "local n = 0\nwhile true do n = n + 1 end",
          chunkName: "line 5",
        });
        expect(outcome).toMatchObject({ ok: false, reason: "cancelled", error: "cancelled" });
        if (outcome.ok) return;
        // After a hook yield Lua reports the line of the instruction before the current one, so
        // the frame may name line 1 or 2 of the loop block.
        expect(outcome.traceback).toMatch(
          /^stack traceback:\n\t\[string "line 5"\]:[12]: in main chunk$/,
        );
        expect(vm.cancelled).toBe(true);
        expect(vm.hookCalls).toBeGreaterThan(0);
      },
      { shouldCancel: deadline(30) },
    );
  });

  it("stops `while true do end` when another thread sets the shared flag", async () => {
    const flag = sharedFlag();
    // The worker waits until Lua has started spinning (the main thread is then blocked), then
    // sets the flag; nothing on the main thread can run meanwhile.
    const worker = new Worker(
      `const { workerData, parentPort } = require("node:worker_threads");
       const { flag } = workerData;
       parentPort.postMessage("ready");
       Atomics.wait(flag, 1, 0);
       Atomics.wait(flag, 1, 1, 20);
       Atomics.store(flag, 0, 1);`,
      { eval: true, workerData: { flag } },
    );
    try {
      await new Promise((resolve) => worker.once("message", resolve));
      await withVm(
        async (vm) => {
          vm.setGlobalFunction("started", () => {
            Atomics.store(flag, 1, 1);
            Atomics.notify(flag, 1);
            return undefined;
          });
          const outcome = await run(vm, "started()\nwhile true do end");
          expect(outcome).toMatchObject({ ok: false, reason: "cancelled" });
          expect(vm.cancelled).toBe(true);
          expect(Atomics.load(flag, 0)).toBe(1);
        },
        { cancelFlag: flag },
      );
    } finally {
      await worker.terminate();
    }
  });

  it("cannot be swallowed by pcall or xpcall", async () => {
    await withVm(
      async (vm) => {
        const outcome = await run(
          vm,
          `local handled = 0
           while true do
             pcall(function() while true do end end)
             xpcall(function() while true do end end, function() handled = handled + 1 end)
           end`,
        );
        expect(outcome).toMatchObject({ ok: false, reason: "cancelled" });
      },
      { shouldCancel: deadline(20) },
    );
  });

  it("raises `cancelled` where the thread cannot yield, and still ends the block", async () => {
    await withVm(
      async (vm) => {
        vm.setGlobalFunction("note", () => undefined);
        const outcome = await run(
          vm,
          `local caught = {}
           for i = 1, 3 do
             local ok, err = pcall(table.sort, {3, 2, 1}, function(a, b) while true do end end)
             caught[i] = err
           end
           return caught`,
        );
        expect(outcome).toMatchObject({ ok: false, reason: "cancelled" });
      },
      { shouldCancel: deadline(20) },
    );
  });

  it("is checked before every resume, so a cancelled VM starts nothing", async () => {
    const flag = sharedFlag();
    await withVm(
      async (vm) => {
        let ran = false;
        vm.setGlobalFunction("mark", async () => {
          ran = true;
          Atomics.store(flag, 0, 1); // set while the block waits: seen before resuming
          return undefined;
        });
        expect(await run(vm, "mark() error('never reached')")).toMatchObject({
          reason: "cancelled",
        });
        expect(ran).toBe(true);
        expect(await run(vm, "return 1")).toMatchObject({ reason: "cancelled", traceback: "" });
      },
      { cancelFlag: flag },
    );
  });

  it("treats a throwing shouldCancel as a request to cancel", async () => {
    await withVm(
      async (vm) => {
        expect(await run(vm, "while true do end")).toMatchObject({ reason: "cancelled" });
      },
      {
        shouldCancel: () => {
          throw new Error("deadline source broke");
        },
        shouldCancelEvery: 1,
      },
    );
  });

  it("is not armed without a cancel source, and calls shouldCancel every N hook calls", async () => {
    await withVm(async (vm) => {
      await values(vm, "for i = 1, 100000 do end");
      expect(vm.hookCalls).toBe(0);
    });
    let polls = 0;
    await withVm(
      async (vm) => {
        await values(vm, "local n = 0 for i = 1, 100000 do n = n + i end");
        expect(vm.hookCalls).toBeGreaterThan(100);
        // + 2: the checks before creating the thread and before the first resume
        expect(polls).toBe(Math.floor(vm.hookCalls / 4) + 2);
      },
      {
        hookInstructions: 500,
        shouldCancelEvery: 4,
        shouldCancel: () => {
          polls++;
          return false;
        },
      },
    );
  });

  it("leaves a cancelled VM closable and its globals writable", async () => {
    await withVm(
      async (vm) => {
        await run(vm, "while true do end");
        vm.setGlobal("after", 1);
        expect(vm.getGlobal("after")).toBe(1);
      },
      { shouldCancel: () => true, shouldCancelEvery: 1 },
    );
  });
});

describe("CancelWatch options", () => {
  it("refuses a flag that no other thread could set, and bad numbers", () => {
    expect(() => new CancelWatch({ cancelFlag: new Int32Array(1) })).toThrow(
      "cancelFlag must be an Int32Array over a SharedArrayBuffer",
    );
    expect(() => new CancelWatch({ cancelFlag: sharedFlag(), cancelFlagIndex: 2 })).toThrow(
      "cancelFlagIndex 2 is outside the cancel flag array",
    );
    expect(() => new CancelWatch({ hookInstructions: 0 })).toThrow(
      "hookInstructions must be an integer >= 1, got 0",
    );
    expect(() => new CancelWatch({ shouldCancelEvery: 1.5 })).toThrow(
      "shouldCancelEvery must be an integer >= 1, got 1.5",
    );
    expect(new CancelWatch({}).armed).toBe(false);
  });
});
