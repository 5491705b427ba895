import type { RunEvent } from "@runvil/protocol";
import { NO_RUN_USAGE } from "@runvil/protocol";
import { describe, expect, it } from "vitest";
import { failureOf, headline } from "../test-support/failure";
import { modelPrompt, runModelPrompt, succeeded } from "./test-support/model-run";
import { boundRole } from "./test-support/scripted-rounds";

/** The model events of a run, without the envelope's run-wide fields. */
function modelEvents(events: readonly RunEvent[]): Record<string, unknown>[] {
  return events
    .filter((e) => e.type.startsWith("model_") || e.type === "context_precheck_failed")
    .map(({ seq: _, execution: __, chain: ___, ...rest }) => rest);
}

describe("runModelRound", () => {
  it("reports each round's start and completion with its number, role, model and usage", async () => {
    const run = await runModelPrompt(
      modelPrompt("models.use('writer') return models.infer('one') .. models.infer('two')"),
      {
        models: {
          bind: { writer: "m-1" },
          replies: [
            { text: "a", usage: { input: 10, output: 2 } },
            { text: "b", finish_reason: "length", usage: { input: 20, output: 3 } },
          ],
        },
      },
    );
    expect(succeeded(run)).toBe("ab");
    expect(modelEvents(run.port.events)).toEqual([
      { type: "model_role_bound", entry: null, section: "T", role: "writer", model: "m-1" },
      {
        type: "model_turn_started",
        entry: "0.1",
        section: "Main",
        turn: 1,
        role: "writer",
        model: "m-1",
        via: "infer",
        messages: 1,
        tools: 0,
        estimated_tokens: 5,
      },
      {
        type: "model_turn_completed",
        entry: "0.1",
        section: "Main",
        turn: 1,
        role: "writer",
        model: "m-1",
        via: "infer",
        finish_reason: "stop",
        input_tokens: 10,
        output_tokens: 2,
        cached_input_tokens: 0,
        reasoning_tokens: 0,
        tool_calls: 0,
        cost_usd: null,
        section_tokens: 12,
        section_cost_usd: null,
        task_tokens: 12,
        task_cost_usd: null,
      },
      expect.objectContaining({ type: "model_turn_started", turn: 2 }),
      expect.objectContaining({ type: "model_turn_completed", turn: 2, finish_reason: "length" }),
    ]);
    expect(run.port.modelRequests.map((r) => [r.turn, r.effect])).toEqual([
      [1, "0.1/1"],
      [2, "0.1/2"],
    ]);
  });

  it("takes effect ids from the entry's counter, in the Lua's order with store calls", async () => {
    const run = await runModelPrompt(
      modelPrompt(
        "models.use('writer') store.write('a.md', 'x') local r = models.infer('q') store.write('b.md', r)",
      ),
      { models: { replies: [{ text: "r" }] } },
    );
    expect(run.result.outcome).toBe("succeeded");
    expect(run.port.requests.map((r) => r.effect)).toEqual(["0.1/1", "0.1/3"]);
    expect(run.port.modelRequests.map((r) => r.effect)).toEqual(["0.1/2"]);
  });

  it("numbers rounds per section entry and counts only completed ones", async () => {
    const run = await runModelPrompt(
      [
        "---",
        "name: t",
        "description: t",
        "runvil: 0",
        "models:",
        "  writer: {}",
        "---",
        "",
        "# T",
        "",
        "```lua",
        "models.default('writer')",
        "```",
        "",
        "## One",
        "",
        "```lua",
        "pcall(models.infer, 'fails')",
        "models.infer('x')",
        "```",
        "",
        "## Two",
        "",
        "```lua",
        "return models.infer('y')",
        "```",
        "",
      ].join("\n"),
      {
        models: {
          replies: [{ fail: { kind: "internal", message: "down" } }, { text: "x" }, { text: "y" }],
        },
      },
    );
    expect(succeeded(run)).toBe("y");
    expect(run.port.modelRequests.map((r) => `${r.origin.entry}:${r.turn}`)).toEqual([
      "0.1:1",
      "0.1:1",
      "0.2:1",
    ]);
    expect(
      modelEvents(run.port.events)
        .filter((e) => e.type === "model_turn_failed")
        .map((e) => ({ ...e })),
    ).toEqual([
      {
        type: "model_turn_failed",
        entry: "0.1",
        section: "One",
        turn: 1,
        role: "writer",
        model: "scripted-model",
        via: "infer",
        kind: "internal",
        message: "down",
      },
    ]);
  });

  it("reports a provider's context refusal with its reason", async () => {
    const run = await runModelPrompt(modelPrompt("models.use('writer') pcall(models.infer, 'x')"), {
      models: { replies: [{ fail: { kind: "context_exhausted", message: "too long" } }] },
    });
    expect(run.result.outcome).toBe("succeeded");
    expect(modelEvents(run.port.events).find((e) => e.type === "model_turn_failed")).toMatchObject({
      kind: "context_exhausted",
      reason: "provider",
      message: "too long",
    });
  });

  it("sums usage per section entry and per run into the run result", async () => {
    const run = await runModelPrompt(
      [
        "---",
        "name: t",
        "description: t",
        "runvil: 0",
        "models:",
        "  writer: {}",
        "  critic: {}",
        "---",
        "",
        "# T",
        "",
        "```lua",
        "models.default('writer')",
        "models.infer('h1')",
        "```",
        "",
        "## One",
        "",
        "```lua",
        "models.infer('a')",
        "models.get('critic'):infer('b')",
        "pcall(models.infer, 'failed rounds add nothing')",
        "models.infer('c')",
        "```",
        "",
      ].join("\n"),
      {
        models: {
          bind: { writer: "w", critic: "c" },
          replies: [
            { text: "0", usage: { input: 1, output: 1 } },
            { text: "1", usage: { input: 10, output: 2 } },
            { text: "2", usage: { input: 100, output: 3 } },
            { fail: { kind: "internal", message: "down" } },
            { text: "3", usage: { input: 1000, output: 4 } },
          ],
        },
      },
    );
    expect(run.result.outcome).toBe("succeeded");
    const usage = (sums: [number, number, number]) => ({
      rounds: sums[0],
      inputTokens: sums[1],
      outputTokens: sums[2],
      cachedInputTokens: 0,
      reasoningTokens: 0,
      costUsd: null,
      unpricedRounds: sums[0],
    });
    expect(run.result.usage).toEqual({
      total: usage([4, 1111, 10]),
      byModel: { c: usage([1, 100, 3]), w: usage([3, 1011, 7]) },
      bySection: { One: usage([3, 1110, 9]), T: usage([1, 1, 1]) },
      byTask: { "0": usage([4, 1111, 10]) },
      sections: [
        {
          entry: "0.0",
          section: "T",
          chain: "0",
          task: "0",
          total: usage([1, 1, 1]),
          byModel: { w: usage([1, 1, 1]) },
        },
        {
          entry: "0.1",
          section: "One",
          chain: "0",
          task: "0",
          total: usage([3, 1110, 9]),
          byModel: { c: usage([1, 100, 3]), w: usage([2, 1010, 6]) },
        },
      ],
    });
  });

  it("counts cached and reasoning tokens when the provider reports them", async () => {
    const run = await runModelPrompt(modelPrompt("models.use('writer') models.infer('x')"), {
      configure: (port) => {
        port.modelRound = async () => ({
          text: "x",
          toolCalls: [],
          finishReason: "stop",
          usage: { inputTokens: 9, outputTokens: 5, cachedInputTokens: 4, reasoningTokens: 2 },
        });
      },
    });
    expect(run.result.usage.total).toEqual({
      rounds: 1,
      inputTokens: 9,
      outputTokens: 5,
      cachedInputTokens: 4,
      reasoningTokens: 2,
      costUsd: null,
      unpricedRounds: 1,
    });
    expect(run.port.events.find((e) => e.type === "model_turn_completed")).toMatchObject({
      cached_input_tokens: 4,
      reasoning_tokens: 2,
    });
  });

  it("gives a run without rounds zero usage", async () => {
    const run = await runModelPrompt(modelPrompt("return 'x'"));
    expect(run.result.usage).toEqual(NO_RUN_USAGE);
  });

  it("refuses a reply over the text limit or the call limit after the turn completed", async () => {
    const big = "x".repeat(8_388_609);
    const calls = Array.from({ length: 257 }, (_, i) => ({
      id: `c${i}`,
      name: "grab",
      arguments: {},
    }));
    const run = await runModelPrompt(
      modelPrompt(
        `models.use('writer')
local a = select(2, pcall(models.infer, 'x'))
local b = select(2, pcall(models.infer, 'y'))
return a.kind .. '|' .. tostring(a) .. '|' .. b.kind .. '|' .. tostring(b)`,
      ),
      { models: { replies: [{ text: big }, { text: "ok", tool_calls: calls }] } },
    );
    expect(succeeded(run)).toBe(
      "internal|the model's reply is 8388609 bytes, over the 8388608-byte limit|internal|the model's reply has 257 tool calls, over the limit of 256",
    );
    const types = run.port.events.map((e) => e.type);
    const refused = run.port.events.filter((e) => e.type === "model_reply_refused");
    expect(refused.map((e) => (e.type === "model_reply_refused" ? e.turn : 0))).toEqual([1, 2]);
    expect(types.indexOf("model_turn_completed")).toBeLessThan(
      types.indexOf("model_reply_refused"),
    );
    expect(run.result.usage.total.rounds).toBe(2);
  });

  it("accepts a reply of exactly the limit", async () => {
    const run = await runModelPrompt(
      modelPrompt("models.use('writer') return #models.infer('x')"),
      { models: { replies: [{ text: "é".repeat(4_194_304) }] } },
    );
    expect(succeeded(run)).toBe("8388608");
  });

  it("fails every round internal when the port has no modelRound", async () => {
    const run = await runModelPrompt(
      modelPrompt(
        "models.use('writer') local ok, e = pcall(models.infer, 'x') return e.kind .. '|' .. tostring(e)",
      ),
      { configure: (port) => Object.defineProperty(port, "modelRound", { value: undefined }) },
    );
    expect(succeeded(run)).toBe("internal|the run has no model port");
    expect(run.port.events.some((e) => e.type === "model_turn_started")).toBe(false);
  });

  it("treats a reply without the ModelReply shape as a failed round", async () => {
    const run = await runModelPrompt(
      modelPrompt(
        "models.use('writer') local ok, e = pcall(models.infer, 'x') return e.kind .. '|' .. tostring(e)",
      ),
      {
        configure: (port) => {
          port.modelRound = async () => ({ text: 5 }) as never;
        },
      },
    );
    expect(succeeded(run)).toBe("internal|scripted-model: the model round failed");
    expect(run.port.events.filter((e) => e.type === "model_turn_failed")).toHaveLength(1);
  });

  it("passes the run's cancel and stop signals, and a cancel ends the waiting round", async () => {
    const controller = new AbortController();
    const run = await runModelPrompt(
      modelPrompt("models.use('writer') pcall(models.infer, 'x') return 'unreached'"),
      {
        signal: controller.signal,
        models: { replies: [{ hold: true }] },
        configure: (port) => {
          const round = port.modelRound.bind(port);
          port.modelRound = (request) => {
            setTimeout(() => controller.abort(), 5);
            return round(request);
          };
        },
      },
    );
    expect(run.result.outcome).toBe("cancelled");
    const [request] = run.port.modelRequests;
    expect(request?.signal.aborted).toBe(true);
    expect(request?.stopSignal.aborted).toBe(false);
    const types = run.port.events.map((e) => e.type);
    expect(types).toContain("model_turn_started");
    expect(types).not.toContain("model_turn_completed");
    expect(types).not.toContain("model_turn_failed");
  });

  it("never survives a stop: nothing more is reported and the run ends stopped", async () => {
    const stop = new AbortController();
    const run = await runModelPrompt(
      modelPrompt("models.use('writer') pcall(models.infer, 'x') return 'unreached'"),
      {
        stopSignal: stop.signal,
        models: { replies: [{ hold: true }] },
        configure: (port) => {
          const round = port.modelRound.bind(port);
          port.modelRound = (request) => {
            setTimeout(() => stop.abort(), 5);
            return round(request);
          };
        },
      },
    );
    expect(run.result).toMatchObject({ outcome: "cancelled", stopped: true });
    expect(run.port.modelRequests[0]?.stopSignal.aborted).toBe(true);
    expect(run.port.events.map((e) => e.type)).not.toContain("model_turn_failed");
  });

  it("starts no round once the run is stopped, even for a port that ignores the stop", async () => {
    const stop = new AbortController();
    const run = await runModelPrompt(
      modelPrompt("models.use('writer') models.infer('x') models.infer('y') return 'unreached'"),
      {
        stopSignal: stop.signal,
        configure: (port) => {
          port.modelRound = async () => {
            stop.abort();
            await new Promise((resolve) => setTimeout(resolve, 5));
            return {
              text: "late",
              toolCalls: [],
              finishReason: "stop",
              usage: { inputTokens: 0, outputTokens: 0 },
            };
          };
        },
      },
    );
    expect(run.result).toMatchObject({ outcome: "cancelled", stopped: true });
    expect(run.port.events.filter((e) => e.type === "model_turn_started")).toHaveLength(1);
    expect(run.port.events.map((e) => e.type)).not.toContain("model_turn_completed");
  });
});

describe("the context precheck", () => {
  it("refuses a request over the window before any request, with the estimate", async () => {
    // 'x' * 400 costs 100 + 4; the system text 'be brief' costs 2 + 4: 110 tokens.
    const run = await runModelPrompt(
      modelPrompt(
        `models.use('writer')
local ok, e = pcall(models.infer, string.rep('x', 400))
return e.kind .. '|' .. e.reason .. '|' .. tostring(e)`,
      ),
      {
        roles: [
          boundRole("writer", {
            model: "small",
            contextWindow: 150,
            system: "be brief",
            settings: { maxOutputTokens: 50 },
          }),
        ],
      },
    );
    expect(succeeded(run)).toBe(
      "context_exhausted|precheck|the request needs about 160 tokens (with 50 reserved for the reply), over the 150-token context window of small",
    );
    expect(run.port.modelRequests).toHaveLength(0);
    expect(modelEvents(run.port.events).filter((e) => e.type !== "model_role_bound")).toEqual([
      {
        type: "context_precheck_failed",
        entry: "0.1",
        section: "Main",
        turn: 1,
        role: "writer",
        model: "small",
        estimated_tokens: 110,
        context_window: 150,
      },
    ]);
  });

  it("lets a request that fits exactly go out, and takes no effect id for a refusal", async () => {
    const run = await runModelPrompt(
      modelPrompt(
        "models.use('writer') pcall(models.infer, string.rep('x', 401)) store.write('a', 'b') return models.infer(string.rep('x', 400))",
      ),
      {
        roles: [boundRole("writer", { contextWindow: 104 })],
        models: { replies: [{ text: "fits" }] },
      },
    );
    expect(succeeded(run)).toBe("fits");
    expect(run.port.requests.map((r) => r.effect)).toEqual(["0.1/1"]);
    expect(run.port.modelRequests.map((r) => r.effect)).toEqual(["0.1/2"]);
  });

  it("ends the run as ContextExhausted when uncaught", async () => {
    const run = await runModelPrompt(modelPrompt("models.use('writer') models.infer('hello')"), {
      roles: [boundRole("writer", { contextWindow: 1 })],
    });
    const error = failureOf(run);
    expect([error.kind, headline(error), error.value?.fields]).toEqual([
      "ContextExhausted",
      "the request needs about 6 tokens (with 0 reserved for the reply), over the 1-token context window of scripted-model",
      { reason: "precheck" },
    ]);
  });
});

describe("provider retries", () => {
  it("reports each retry the provider makes as model_turn_retrying, then the completion", async () => {
    const run = await runModelPrompt(modelPrompt("models.use('writer') return models.infer('q')"), {
      models: { replies: [{ text: "done" }] },
      configure: (port) => {
        const scripted = port.modelRound.bind(port);
        port.modelRound = (request) => {
          request.onProgress?.({
            type: "retry",
            attempt: 1,
            delayMs: 250,
            reason: "rate limited (429)",
          });
          request.onProgress?.({ type: "output", outputTokens: 3, attempt: 2 });
          return scripted(request);
        };
      },
    });
    expect(succeeded(run)).toBe("done");
    expect(modelEvents(run.port.events).map((e) => e.type)).toEqual([
      "model_role_bound",
      "model_turn_started",
      "model_turn_retrying",
      "model_turn_completed",
    ]);
    expect(modelEvents(run.port.events)[2]).toEqual({
      type: "model_turn_retrying",
      entry: "0.1",
      section: "Main",
      turn: 1,
      role: "writer",
      model: "scripted-model",
      via: "infer",
      attempt: 1,
      delay_ms: 250,
      reason: "rate limited (429)",
    });
  });
});
