import {
  defineTool,
  type JsonValue,
  type ToolContext,
  type ToolDefinition,
  ToolFailure,
} from "@runvil/sdk";
import { describe, expect, it } from "vitest";
import { MemoryStore } from "../store/memory-store";
import { rejectionOf, servicesOf, TEST_ORIGIN, toolRequest } from "./test-support";
import { ToolDispatcher, type ToolDispatcherOptions } from "./tool-dispatcher";

const FETCH_SCHEMA = { type: "object", properties: { url: { type: "string" } }, required: ["url"] };

function tool(overrides: Partial<ToolDefinition> & Pick<ToolDefinition, "id">): ToolDefinition {
  return {
    description: "A test tool.",
    parameters: { type: "object", properties: {} },
    trust: "trusted",
    run: () => "ok",
    ...overrides,
  };
}

function dispatcher(
  tools: readonly ToolDefinition[],
  options: Partial<ToolDispatcherOptions> = {},
): ToolDispatcher {
  return new ToolDispatcher({
    tools: new Map(tools.map((t) => [t.id, t])),
    services: servicesOf(),
    store: new MemoryStore(),
    ...options,
  });
}

/** A dispatcher that records every onToolError call. */
function logged(tools: readonly ToolDefinition[]): {
  dispatcher: ToolDispatcher;
  errors: [string, unknown][];
} {
  const errors: [string, unknown][] = [];
  return {
    errors,
    dispatcher: dispatcher(tools, { onToolError: (id, error) => errors.push([id, error]) }),
  };
}

async function failureOf(promise: Promise<unknown>): Promise<ToolFailure> {
  const error = await rejectionOf(promise);
  if (!ToolFailure.isInstance(error))
    throw new Error(`expected a ToolFailure, got ${String(error)}`);
  return error;
}

describe("ToolDispatcher", () => {
  it("runs the tool with the arguments and answers with its text and trust", async () => {
    const fetch = defineTool<{ url: string }>({
      id: "web/fetch",
      description: "Fetches a page.",
      parameters: FETCH_SCHEMA,
      trust: "untrusted",
      run: (args) => `page at ${args.url}`,
    });
    const d = dispatcher([fetch as ToolDefinition]);
    expect(d.has("web/fetch")).toBe(true);
    expect(d.has("web/search")).toBe(false);
    expect(await d.call(toolRequest("web/fetch", { url: "https://www.lua.org/" }))).toEqual({
      text: "page at https://www.lua.org/",
      trusted: false,
    });
  });

  it("marks only `trusted` output as trusted", async () => {
    const marking = "Trusted" as ToolDefinition["trust"];
    const d = dispatcher([
      tool({ id: "kit/a", trust: "trusted" }),
      tool({ id: "kit/b", trust: marking }),
    ]);
    expect((await d.call(toolRequest("kit/a", {}))).trusted).toBe(true);
    expect((await d.call(toolRequest("kit/b", {}))).trusted).toBe(false);
  });

  it("lends the tool a context with the run's services, store, signal and origin", async () => {
    let seen: ToolContext | undefined;
    const store = new MemoryStore({ files: { "note.md": "hello" } });
    const services = servicesOf({ "runvil/input-broker": "broker" });
    const d = dispatcher(
      [
        tool({
          id: "kit/look",
          run: async (_args, ctx) => {
            seen = ctx;
            return ctx.store.read("note.md");
          },
        }),
      ],
      { store, services },
    );
    const signal = new AbortController().signal;
    const request = toolRequest(
      "kit/look",
      {},
      { name: "kit_look", caller: "model", callId: "call_1", signal, effect: "0.1/7" },
    );
    expect(await d.call(request)).toEqual({ text: "hello", trusted: true });
    expect(seen?.services).toBe(services);
    expect(seen?.store).toBe(store);
    expect(seen?.signal).toBe(signal);
    expect(seen?.toolId).toBe("kit/look");
    expect(seen?.name).toBe("kit_look");
    expect(seen?.effectId).toBe("0.1/7");
    expect(seen?.runId).toBeUndefined();
    expect(seen?.origin).toEqual({
      execution: TEST_ORIGIN.execution,
      section: TEST_ORIGIN.section,
      caller: "model",
      chain: TEST_ORIGIN.chain,
      entry: TEST_ORIGIN.entry,
    });
  });

  it("lends the recorded run's id, read at each call when given as a function", async () => {
    const seen: (string | undefined)[] = [];
    const look = tool({
      id: "kit/look",
      run: (_args, ctx) => {
        seen.push(ctx.runId);
        return ctx.effectId;
      },
    });
    let runId: string | undefined;
    const late = dispatcher([look], { runId: () => runId });
    expect((await late.call(toolRequest("kit/look", {}, { effect: "0.1/1" }))).text).toBe("0.1/1");
    runId = "r-9";
    expect((await late.call(toolRequest("kit/look", {}, { effect: "0.1/2" }))).text).toBe("0.1/2");
    await dispatcher([look], { runId: "r-1" }).call(toolRequest("kit/look", {}));
    expect(seen).toEqual([undefined, "r-9", "r-1"]);
  });

  it("passes the name the call used (the id for a left-out tool)", async () => {
    const d = dispatcher([tool({ id: "task/status", run: (_args, ctx) => ctx.name })]);
    expect((await d.call(toolRequest("task/status", {}, { name: "task/status" }))).text).toBe(
      "task/status",
    );
  });

  it("gives the tool a copy of the arguments", async () => {
    const args = { list: [1] };
    const d = dispatcher([
      tool({
        id: "kit/mutate",
        run: (received) => {
          (received.list as JsonValue[]).push(2);
          return JSON.stringify(received);
        },
      }),
    ]);
    expect((await d.call(toolRequest("kit/mutate", args))).text).toBe('{"list":[1,2]}');
    expect(args).toEqual({ list: [1] });
  });

  it("refuses arguments that fail the schema without running the tool", async () => {
    let runs = 0;
    const d = dispatcher([
      tool({
        id: "web/fetch",
        parameters: FETCH_SCHEMA,
        run: () => {
          runs += 1;
          return "page";
        },
      }),
    ]);
    const failure = await failureOf(d.call(toolRequest("web/fetch", {})));
    expect(failure.message).toBe("web_fetch: missing url argument");
    expect(failure).toBeInstanceOf(ToolFailure);
    const typed = await failureOf(d.call(toolRequest("web/fetch", { url: 1 })));
    expect(typed.message).toBe("web_fetch: argument `url` must be a string");
    expect(runs).toBe(0);
  });

  it("compiles a tool's schema once, at its first call", async () => {
    let reads = 0;
    const definition = tool({ id: "kit/count" });
    const counted = Object.defineProperty({ ...definition }, "parameters", {
      get: () => {
        reads += 1;
        return { type: "object" };
      },
    });
    const d = dispatcher([counted]);
    expect(reads).toBe(0);
    await d.call(toolRequest("kit/count", {}));
    await d.call(toolRequest("kit/count", { a: 1 }));
    await dispatcher([counted]).call(toolRequest("kit/count", {}));
    expect(reads).toBe(1);
  });

  it("fails a tool whose object schema ajv cannot compile, and logs why", async () => {
    const { dispatcher: d, errors } = logged([
      tool({ id: "stats/typo", parameters: { type: "strin" } }),
    ]);
    expect((await failureOf(d.call(toolRequest("stats/typo", {})))).message).toBe(
      "stats_typo: the tool's parameter schema is invalid",
    );
    expect(errors.map(([id, error]) => [id, (error as Error).message])).toEqual([
      ["stats/typo", expect.stringContaining("schema is invalid")],
    ]);
  });

  it("runs a tool whose schema is not a JSON object without checking its arguments", async () => {
    // Such a tool is left out of the offering; a script call by id "runs normally" (tools
    // chapter, "How tool calls are recorded").
    const seen: unknown[] = [];
    const { dispatcher: d, errors } = logged(
      ["scalar", false, true, null, 7, ["type"]].map((parameters, i) =>
        defineTool({
          id: `stats/odd${i}`,
          description: "Has a schema that is not an object.",
          parameters,
          trust: "trusted",
          run: async (args) => {
            seen.push(args);
            return `ran ${i}`;
          },
        }),
      ),
    );
    for (let i = 0; i < 6; i++) {
      expect(await d.call(toolRequest(`stats/odd${i}`, { any: i }))).toEqual({
        text: `ran ${i}`,
        trusted: true,
      });
    }
    expect(seen).toEqual([0, 1, 2, 3, 4, 5].map((i) => ({ any: i })));
    expect(errors).toEqual([]);
  });

  it("passes a tool's own ToolFailure on with its message only", async () => {
    const { dispatcher: d, errors } = logged([
      tool({
        id: "kit/fail",
        run: () => {
          throw new ToolFailure("kit_fail: the page is gone");
        },
      }),
      tool({
        id: "kit/hidden",
        run: async () => {
          throw new ToolFailure("kit_hidden: the service is down", {
            cause: new Error("ECONNRESET"),
          });
        },
      }),
    ]);
    const plain = await failureOf(d.call(toolRequest("kit/fail", {})));
    expect(plain.message).toBe("kit_fail: the page is gone");
    const hidden = await failureOf(d.call(toolRequest("kit/hidden", {})));
    expect(hidden.message).toBe("kit_hidden: the service is down");
    expect(hidden.cause).toBeUndefined();
    expect(errors).toHaveLength(1);
    const [id, reported] = errors[0] ?? [];
    expect(id).toBe("kit/hidden");
    expect(ToolFailure.isInstance(reported)).toBe(true);
    expect(((reported as Error).cause as Error).message).toBe("ECONNRESET");
  });

  it("recognizes a ToolFailure from another copy of the SDK", async () => {
    const foreign = Object.assign(new Error("kit_x: foreign failure"), {
      [Symbol.for("runvil.ToolFailure")]: true,
    });
    const d = dispatcher([
      tool({
        id: "kit/x",
        run: () => {
          throw foreign;
        },
      }),
    ]);
    const failure = await failureOf(d.call(toolRequest("kit/x", {})));
    expect(failure).toBeInstanceOf(ToolFailure);
    expect(failure.message).toBe("kit_x: foreign failure");
  });

  it("hides any other error behind `{wire}: the tool failed` and logs it", async () => {
    const secret = new Error("password=hunter2");
    const { dispatcher: d, errors } = logged([
      tool({
        id: "kit/crash",
        run: () => {
          throw secret;
        },
      }),
      tool({ id: "kit/reject", run: () => Promise.reject("a string") }),
    ]);
    expect((await failureOf(d.call(toolRequest("kit/crash", {})))).message).toBe(
      "kit_crash: the tool failed",
    );
    expect((await failureOf(d.call(toolRequest("kit/reject", {})))).message).toBe(
      "kit_reject: the tool failed",
    );
    expect(errors).toEqual([
      ["kit/crash", secret],
      ["kit/reject", "a string"],
    ]);
  });

  it("writes non-string output as JSON text, structured or plain", async () => {
    const d = dispatcher([
      tool({ id: "stats/read", output: "structured", run: () => ({ text: "typed", images: [] }) }),
      tool({ id: "stats/text", output: "structured", run: () => '{"text":"typed"}' }),
      tool({ id: "kit/number", run: () => 42 }),
    ]);
    expect((await d.call(toolRequest("stats/read", {}))).text).toBe('{"text":"typed","images":[]}');
    expect((await d.call(toolRequest("stats/text", {}))).text).toBe('{"text":"typed"}');
    expect((await d.call(toolRequest("kit/number", {}))).text).toBe("42");
  });

  it("fails a tool whose output is not text or JSON data", async () => {
    const { dispatcher: d, errors } = logged([
      tool({ id: "kit/void", run: () => undefined as unknown as string }),
    ]);
    expect((await failureOf(d.call(toolRequest("kit/void", {})))).message).toBe(
      "kit_void: the tool failed",
    );
    expect(errors.map(([id, error]) => [id, (error as Error).message])).toEqual([
      [
        "kit/void",
        "tool kit/void failed: its output is not text or JSON data (undefined is not JSON data)",
      ],
    ]);
  });

  it("ignores an onToolError that throws", async () => {
    const d = dispatcher(
      [
        tool({
          id: "kit/crash",
          run: () => {
            throw new Error("boom");
          },
        }),
      ],
      {
        onToolError: () => {
          throw new Error("log failed");
        },
      },
    );
    expect((await failureOf(d.call(toolRequest("kit/crash", {})))).message).toBe(
      "kit_crash: the tool failed",
    );
  });

  it("rejects with a plain Error for a tool id it does not have", async () => {
    const error = await rejectionOf(dispatcher([]).call(toolRequest("web/fetch", {})));
    expect(ToolFailure.isInstance(error)).toBe(false);
    expect((error as Error).message).toBe("no tool web/fetch in this run's tool map");
  });

  it("rejects at once when the signal aborts, and the tool sees the abort", async () => {
    const controller = new AbortController();
    let toolSawAbort = false;
    let started: () => void = () => {};
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const { dispatcher: d, errors } = logged([
      tool({
        id: "user-input/ask",
        run: (_args, ctx) =>
          new Promise<string>((_resolve, reject) => {
            started();
            ctx.signal.addEventListener("abort", () => {
              toolSawAbort = true;
              reject(new Error("the wait was dropped"));
            });
          }),
      }),
    ]);
    const call = d.call(toolRequest("user-input/ask", {}, { signal: controller.signal }));
    await running;
    const reason = new Error("run cancelled");
    controller.abort(reason);
    expect(await rejectionOf(call)).toBe(reason);
    expect(toolSawAbort).toBe(true);
    expect(errors).toEqual([]);
  });

  it("rejects with an AbortError when the reason is not an Error", async () => {
    const controller = new AbortController();
    const d = dispatcher([tool({ id: "kit/wait", run: () => new Promise<string>(() => {}) })]);
    const call = d.call(toolRequest("kit/wait", {}, { signal: controller.signal }));
    controller.abort("stop");
    const error = await rejectionOf(call);
    expect((error as Error).name).toBe("AbortError");
    expect((error as Error).message).toBe("the tool call was cancelled");
  });

  it("does not run the tool when the signal is already aborted", async () => {
    let runs = 0;
    const d = dispatcher([
      tool({
        id: "kit/never",
        run: () => {
          runs += 1;
          return "ran";
        },
      }),
    ]);
    const controller = new AbortController();
    const reason = new Error("cancelled before");
    controller.abort(reason);
    expect(
      await rejectionOf(d.call(toolRequest("kit/never", {}, { signal: controller.signal }))),
    ).toBe(reason);
    expect(runs).toBe(0);
  });

  describe("a stop of the run (stopSignal)", () => {
    /** A tool that waits until its signal aborts (recording it) or `answer` is called. */
    function waiting(id: string, survivesStop: boolean) {
      const seen: { signal?: AbortSignal; answer?: (text: string) => void } = {};
      const definition = tool({
        id,
        survivesStop,
        run: (_args, ctx) =>
          new Promise<string>((resolve, reject) => {
            seen.signal = ctx.signal;
            seen.answer = resolve;
            ctx.signal.addEventListener("abort", () => reject(new Error("dropped")));
          }),
      });
      return { definition, seen };
    }

    it("gives each call its own joined signal and lets go of the sources when it ends", async () => {
      const seen: AbortSignal[] = [];
      const d = dispatcher([
        tool({
          id: "kit/work",
          run: (_args, ctx) => {
            seen.push(ctx.signal);
            return "done";
          },
        }),
      ]);
      const stop = new AbortController();
      const cancel = new AbortController();
      const options = { signal: cancel.signal, stopSignal: stop.signal };
      await d.call(toolRequest("kit/work", {}, options));
      await d.call(toolRequest("kit/work", {}, options));
      expect(seen[0]).not.toBe(seen[1]);
      stop.abort("stopped");
      expect([seen[0]?.aborted, seen[1]?.aborted]).toEqual([false, false]);
    });

    it("stops a call whose tool does not survive a stop, with the stop's reason", async () => {
      const work = waiting("kit/work", false);
      const { dispatcher: d, errors } = logged([work.definition]);
      const stop = new AbortController();
      const cancel = new AbortController();
      const call = d.call(
        toolRequest("kit/work", {}, { signal: cancel.signal, stopSignal: stop.signal }),
      );
      await Promise.resolve();
      const reason = new DOMException("the run was stopped", "AbortError");
      stop.abort(reason);
      expect(await rejectionOf(call)).toBe(reason);
      expect(work.seen.signal?.aborted).toBe(true);
      expect(cancel.signal.aborted).toBe(false);
      expect(errors).toEqual([]);
    });

    it("keeps a call whose tool survives a stop open until it answers", async () => {
      const ask = waiting("user-input/ask", true);
      const d = dispatcher([ask.definition]);
      const stop = new AbortController();
      const cancel = new AbortController();
      const call = d.call(
        toolRequest("user-input/ask", {}, { signal: cancel.signal, stopSignal: stop.signal }),
      );
      await Promise.resolve();
      stop.abort(new Error("stopped"));
      expect(ask.seen.signal).toBe(cancel.signal);
      expect(ask.seen.signal?.aborted).toBe(false);
      ask.seen.answer?.("typed");
      expect(await call).toEqual({ text: "typed", trusted: true });
    });

    it("still ends a surviving call when the cancel signal aborts", async () => {
      const ask = waiting("user-input/ask", true);
      const d = dispatcher([ask.definition]);
      const stop = new AbortController();
      const cancel = new AbortController();
      const call = d.call(
        toolRequest("user-input/ask", {}, { signal: cancel.signal, stopSignal: stop.signal }),
      );
      await Promise.resolve();
      stop.abort(new Error("stopped"));
      const reason = new Error("cancelled");
      cancel.abort(reason);
      expect(await rejectionOf(call)).toBe(reason);
      expect(ask.seen.signal?.aborted).toBe(true);
    });

    it("runs a surviving tool after the stop but nothing else", async () => {
      let runs = 0;
      const d = dispatcher([
        tool({ id: "kit/ask", survivesStop: true, run: () => `ran ${++runs}` }),
        tool({ id: "kit/work", run: () => `ran ${++runs}` }),
      ]);
      const stop = new AbortController();
      const reason = new Error("stopped before");
      stop.abort(reason);
      expect(await d.call(toolRequest("kit/ask", {}, { stopSignal: stop.signal }))).toEqual({
        text: "ran 1",
        trusted: true,
      });
      expect(
        await rejectionOf(d.call(toolRequest("kit/work", {}, { stopSignal: stop.signal }))),
      ).toBe(reason);
      expect(runs).toBe(1);
    });
  });
});
