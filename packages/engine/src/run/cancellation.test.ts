import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { body, lua } from "../test-support/lua-fence";
import { MemoryPort } from "../test-support/memory-port";
import { promptText } from "../test-support/parse";
import { runTestPrompt } from "../test-support/run-prompt";

describe("cancellation", () => {
  it("stops a spinning block through the shared flag set by another thread", async () => {
    const flag = new Int32Array(new SharedArrayBuffer(8));
    const worker = new Worker(
      "const { workerData } = require('node:worker_threads'); const f = new Int32Array(workerData); Atomics.wait(f, 1, 0); Atomics.store(f, 0, 1);",
      { eval: true, workerData: flag.buffer },
    );
    const text = promptText(
      body(
        "# T",
        "## Spin",
        lua("log('spinning')\nwhile true do pcall(function() end) end"),
        "## Never",
        lua("return 'no'"),
      ),
    );
    const port = new MemoryPort();
    port.emit = (event) => {
      port.events.push(event);
      if (event.type === "lua_checkpoint") {
        Atomics.store(flag, 1, 1);
        Atomics.notify(flag, 1);
      }
    };
    const run = await runTestPrompt(text, { cancelFlag: flag, port });
    await worker.terminate();
    expect(run.result.outcome).toBe("cancelled");
    expect(run.port.types().slice(-4)).toEqual([
      "chunk_failed",
      "teardown_started",
      "teardown_succeeded",
      "run_finished",
    ]);
    expect(run.port.events.at(-1)).toMatchObject({ outcome: "cancelled" });
  });

  it("ends a block waiting on an effect at once when the signal aborts", async () => {
    const controller = new AbortController();
    const port = new MemoryPort();
    port.beforeStoreOp = (request) =>
      new Promise<void>((resolve) => {
        request.signal.addEventListener("abort", () => resolve());
        controller.abort();
      });
    const text = promptText(
      body(
        "# T",
        "## Wait",
        lua("local ok = pcall(store.read, 'x')\nlog('after the wait')\nreturn 'no'"),
      ),
    );
    const run = await runTestPrompt(text, { signal: controller.signal, port });
    expect(run.result.outcome).toBe("cancelled");
    expect(run.port.checkpoints()).toEqual([]);
  });

  it("starts nothing when the run is cancelled before it begins", async () => {
    const controller = new AbortController();
    controller.abort();
    const run = await runTestPrompt(promptText(body("# T", "## A", lua("log('ran')"))), {
      signal: controller.signal,
    });
    expect(run.result.outcome).toBe("cancelled");
    expect(run.port.checkpoints()).toEqual([]);
  });

  it("stops through an in-thread shouldCancel check", async () => {
    let polls = 0;
    const run = await runTestPrompt(promptText(body("# T", "## Spin", lua("while true do end"))), {
      shouldCancel: () => ++polls > 50,
    });
    expect(run.result.outcome).toBe("cancelled");
  });
});
