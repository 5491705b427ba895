import { Worker } from "node:worker_threads";
import type {
  CatalogTool,
  RunCatalog,
  RunEvent,
  ToolCallOutput,
  ToolCallRequest,
} from "@runvil/protocol";
import { NO_RUN_USAGE as NO_USAGE } from "@runvil/protocol";
import { describe, expect, it } from "vitest";
import { body, lua } from "../test-support/lua-fence";
import { MemoryPort } from "../test-support/memory-port";
import { promptText } from "../test-support/parse";
import { runTestPrompt } from "../test-support/run-prompt";

function tool(id: string): CatalogTool {
  return {
    id,
    pack: "slow",
    wireName: id.replace("/", "_"),
    description: `The ${id} test tool.`,
    parameters: { type: "object", properties: {} },
    structured: false,
  };
}

/** `slow/ask` survives a stop (like the ask tool); `slow/work` does not. */
const catalog: RunCatalog = {
  tools: [tool("slow/ask"), tool("slow/work")],
  packs: null,
  preludes: [],
  dropped: [],
  models: [],
};

/**
 * A port whose tool calls wait until the test answers them, and which reacts to the stop as the
 * Harness's ToolDispatcher does: `slow/work` rejects with the stop signal's reason, `slow/ask`
 * stays open; both reject when the cancel signal aborts.
 */
class StopPort extends MemoryPort {
  readonly calls: ToolCallRequest[] = [];
  private readonly answers: ((text: string) => void)[] = [];
  /** Called with each request as it arrives. */
  onCall: ((request: ToolCallRequest) => void) | undefined;

  toolCall(request: ToolCallRequest): Promise<ToolCallOutput> {
    this.calls.push(request);
    return new Promise<ToolCallOutput>((resolve, reject) => {
      this.answers.push((text) => resolve({ text, trusted: true }));
      request.signal.addEventListener("abort", () => reject(new Error("cancelled")));
      if (request.tool === "slow/work") {
        const stop = request.stopSignal;
        stop?.addEventListener("abort", () => reject(stop.reason));
      }
      this.onCall?.(request);
    });
  }

  /** Answers the oldest open call with `text`. */
  answer(text: string): void {
    this.answers.shift()?.(text);
  }

  /** The events from `type` on, without the envelope. */
  eventsOf(prefix: string): Record<string, unknown>[] {
    return this.events
      .filter((e) => e.type.startsWith(prefix))
      .map((e: RunEvent) => {
        const { seq, execution, chain, entry, section, ...rest } = e;
        return rest;
      });
  }
}

/** Lets every pending callback run (a few turns of the event loop). */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

const TAIL = ["chunk_failed", "teardown_started", "teardown_succeeded", "run_finished"];

describe("stopping a run", () => {
  it("starts no section after a stop between sections, and keeps the var read back", async () => {
    const stop = new AbortController();
    const port = new MemoryPort();
    port.emit = (event) => {
      port.events.push(event);
      if (event.type === "section_completed" && event.section === "A") stop.abort();
    };
    const run = await runTestPrompt(
      promptText(body("# T", "## A", lua("var.a = 1\nlog('A ran')"), "## B", lua("log('B ran')"))),
      { port, stopSignal: stop.signal },
    );
    expect(run.result).toEqual({
      outcome: "cancelled",
      stopped: true,
      var: { a: 1 },
      events: 11,
      usage: NO_USAGE,
    });
    expect(run.port.checkpoints()).toEqual(["Lua: A ran"]);
    expect(run.port.types().slice(-2)).toEqual(["section_completed", "run_finished"]);
    expect(run.port.events.at(-1)).toMatchObject({ outcome: "cancelled", stopped: true });
    expect(run.port.events.filter((e) => e.section === "B")).toEqual([]);
  });

  it("starts nothing when the stop signal aborted before the run began", async () => {
    const stop = new AbortController();
    stop.abort();
    const run = await runTestPrompt(promptText(body("# T", "## A", lua("log('ran')"))), {
      stopSignal: stop.signal,
    });
    expect(run.result).toEqual({
      outcome: "cancelled",
      stopped: true,
      var: {},
      events: 2,
      usage: NO_USAGE,
    });
    expect(run.port.types()).toEqual(["run_started", "run_finished"]);
  });

  it("stops a spinning block through the in-thread check; pcall cannot swallow it", async () => {
    let polls = 0;
    const run = await runTestPrompt(
      promptText(
        body(
          "# T",
          "## Spin",
          lua("while true do pcall(function() end) end"),
          "## Never",
          lua("log('no')"),
        ),
      ),
      { shouldStop: () => ++polls > 50 },
    );
    expect(run.result).toMatchObject({ outcome: "cancelled", stopped: true });
    expect(run.port.types().slice(-4)).toEqual(TAIL);
    expect(run.port.checkpoints()).toEqual([]);
  });

  it("stops a spinning block through the stop flag set by another thread", async () => {
    const flags = new Int32Array(new SharedArrayBuffer(12));
    const worker = new Worker(
      "const { workerData } = require('node:worker_threads'); const f = new Int32Array(workerData); Atomics.wait(f, 2, 0); Atomics.store(f, 1, 1);",
      { eval: true, workerData: flags.buffer },
    );
    const port = new MemoryPort();
    port.emit = (event) => {
      port.events.push(event);
      if (event.type === "lua_checkpoint") {
        Atomics.store(flags, 2, 1);
        Atomics.notify(flags, 2);
      }
    };
    const run = await runTestPrompt(
      promptText(body("# T", "## Spin", lua("log('spinning')\nwhile true do end"))),
      { port, cancelFlag: flags, cancelFlagIndex: 0, stopFlag: flags, stopFlagIndex: 1 },
    );
    await worker.terminate();
    expect(run.result).toMatchObject({ outcome: "cancelled", stopped: true });
    expect(run.port.types().slice(-4)).toEqual(TAIL);
  });

  it("aborts a pending call to a tool that does not survive a stop, reporting nothing more", async () => {
    const stop = new AbortController();
    const port = new StopPort();
    port.onCall = () => stop.abort();
    const run = await runTestPrompt(
      promptText(
        body(
          "# T",
          "## Work",
          lua("local ok = pcall(tools.call, 'slow/work')\nlog('after the call')"),
        ),
      ),
      { port, catalog, stopSignal: stop.signal },
    );
    expect(run.result).toMatchObject({ outcome: "cancelled", stopped: true });
    expect(port.checkpoints()).toEqual([]);
    expect(port.eventsOf("tool_")).toEqual([
      {
        type: "tool_call_started",
        turn: 0,
        tool_call_id: "",
        alias: "slow_work",
        tool: "slow/work",
        caller: "script",
        arguments: {},
      },
    ]);
    const [request] = port.calls;
    expect(request?.stopSignal?.aborted).toBe(true);
    expect(request?.signal.aborted).toBe(false);
    expect(port.types().slice(-4)).toEqual(TAIL);
  });

  it("waits for a pending call that survives a stop, records its answer, then ends stopped", async () => {
    const stop = new AbortController();
    const port = new StopPort();
    port.onCall = () => stop.abort();
    let ended = false;
    const running = runTestPrompt(
      promptText(
        body(
          "# T",
          "## Ask",
          lua(
            "local text = tools.call('slow/ask')\nlog('after: ' .. text)\nstore.write('a.txt', text)",
          ),
          "## Never",
          lua("log('no')"),
        ),
      ),
      { port, catalog, stopSignal: stop.signal },
    ).then((run) => {
      ended = true;
      return run;
    });
    await settle();
    expect(stop.signal.aborted).toBe(true);
    expect(ended).toBe(false); // the operator's question is still open
    expect(port.calls[0]?.signal.aborted).toBe(false);
    port.answer("yes");
    const run = await running;
    expect(run.result).toEqual({
      outcome: "cancelled",
      stopped: true,
      var: {},
      events: 12,
      usage: NO_USAGE,
    });
    expect(port.eventsOf("tool_").map((e) => e.type)).toEqual([
      "tool_call_started",
      "tool_call_succeeded",
      "tool_result",
    ]);
    expect(port.eventsOf("tool_result")).toEqual([
      {
        type: "tool_result",
        turn: 0,
        tool_call_id: "",
        alias: "slow_ask",
        tool: "slow/ask",
        content: "yes",
        trusted: true,
      },
    ]);
    // The answer is recorded, but the block runs no further: nothing after the call happens.
    expect(port.checkpoints()).toEqual([]);
    expect(await port.files()).toEqual({});
    expect(port.types().slice(-4)).toEqual(TAIL);
    expect(port.events.at(-1)).toMatchObject({ outcome: "cancelled", stopped: true });
  });

  it("records a surviving call's own failure after a stop", async () => {
    const stop = new AbortController();
    const port = new StopPort();
    port.toolCall = (request) => {
      port.calls.push(request);
      stop.abort();
      return new Promise((_, reject) => {
        setImmediate(() => reject(new Error("the operator's window closed")));
      });
    };
    const run = await runTestPrompt(
      promptText(body("# T", "## Ask", lua("pcall(tools.call, 'slow/ask')\nlog('after')"))),
      { port, catalog, stopSignal: stop.signal },
    );
    expect(run.result).toMatchObject({ outcome: "cancelled", stopped: true });
    expect(port.eventsOf("tool_call_failed")).toEqual([
      {
        type: "tool_call_failed",
        turn: 0,
        tool_call_id: "",
        alias: "slow_ask",
        tool: "slow/ask",
        caller: "script",
        message: "tool call failure: slow_ask: the tool failed",
      },
    ]);
    expect(port.checkpoints()).toEqual([]);
  });

  it("waits for a surviving call inside a called chain, tearing the chains down inside out", async () => {
    const stop = new AbortController();
    const port = new StopPort();
    port.onCall = () => {
      stop.abort();
      setImmediate(() => port.answer("late"));
    };
    const run = await runTestPrompt(
      promptText(
        body(
          "# T",
          "## Main",
          lua("call('### Helper')\nlog('main after')"),
          "### Helper",
          lua("tools.call('slow/ask')\nlog('helper after')"),
        ),
      ),
      { port, catalog, stopSignal: stop.signal },
    );
    expect(run.result).toMatchObject({ outcome: "cancelled", stopped: true });
    expect(port.checkpoints()).toEqual([]);
    expect(port.events.slice(-12, -1).map((e) => `${e.type} ${e.section}`)).toEqual([
      "section_entered Helper",
      "chunk_started Helper",
      "tool_call_started Helper",
      "tool_call_succeeded Helper",
      "tool_result Helper",
      "chunk_failed Helper",
      "teardown_started Helper",
      "teardown_succeeded Helper",
      "chunk_failed Main",
      "teardown_started Main",
      "teardown_succeeded Main",
    ]);
  });

  it("drops a surviving call at once when a cancel comes during the stop", async () => {
    const stop = new AbortController();
    const cancel = new AbortController();
    const port = new StopPort();
    port.onCall = () => {
      stop.abort();
      setImmediate(() => cancel.abort());
    };
    const run = await runTestPrompt(
      promptText(body("# T", "## Ask", lua("tools.call('slow/ask')\nlog('after')"))),
      { port, catalog, stopSignal: stop.signal, signal: cancel.signal },
    );
    expect(run.result).toEqual({ outcome: "cancelled", var: {}, events: 10, usage: NO_USAGE });
    expect(port.calls[0]?.signal.aborted).toBe(true);
    expect(port.eventsOf("tool_").map((e) => e.type)).toEqual(["tool_call_started"]);
    expect(port.events.at(-1)).toMatchObject({ type: "run_finished", outcome: "cancelled" });
    expect(port.events.at(-1)).not.toHaveProperty("stopped");
  });

  it("issues no effect a block asks for after the stop: the run ends there", async () => {
    let stopNow = false;
    const port = new MemoryPort();
    port.emit = (event) => {
      port.events.push(event);
      if (event.type === "lua_checkpoint") stopNow = true;
    };
    const run = await runTestPrompt(
      promptText(
        body("# T", "## A", lua("log('go')\npcall(store.write, 'x.txt', 'y')\nlog('after')")),
      ),
      { port, shouldStop: () => stopNow },
    );
    expect(run.result).toMatchObject({ outcome: "cancelled", stopped: true });
    expect(port.checkpoints()).toEqual(["Lua: go"]);
    expect(port.requests).toEqual([]);
    expect(port.types().filter((t) => t === "store_op")).toEqual([]);
  });

  it("keeps a cancel that came first: a later stop changes nothing", async () => {
    const stop = new AbortController();
    const cancel = new AbortController();
    const port = new StopPort();
    port.onCall = () => {
      cancel.abort();
      stop.abort();
    };
    const run = await runTestPrompt(
      promptText(body("# T", "## Ask", lua("tools.call('slow/ask')"))),
      { port, catalog, stopSignal: stop.signal, signal: cancel.signal },
    );
    expect(run.result).toEqual({ outcome: "cancelled", var: {}, events: 10, usage: NO_USAGE });
  });
});
