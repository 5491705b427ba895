import { describe, expect, it } from "vitest";
import { modelPrompt, runModelPrompt } from "./test-support/model-run";
import { boundRole } from "./test-support/scripted-rounds";
import { compareEntryIds } from "./usage";

describe("compareEntryIds", () => {
  it("orders entry ids by their numeric segments", () => {
    expect(["0.10", "0.2", "0.1.3", "0.1", "0.0", "0.1.0.2"].sort(compareEntryIds)).toEqual([
      "0.0",
      "0.1",
      "0.1.0.2",
      "0.1.3",
      "0.2",
      "0.10",
    ]);
  });
});

describe("the cost of model rounds", () => {
  const PRICED = { inputPerMillion: 3, outputPerMillion: 15, cachedInputPerMillion: 0.3 };

  it("prices each round from its role's model and sums it per section, task and run", async () => {
    const run = await runModelPrompt(
      modelPrompt("models.use('writer') models.infer('a') models.infer('b')", {
        h1: "models.use('writer') models.infer('h')",
      }),
      {
        roles: [boundRole("writer", { model: "sonnet", prices: PRICED })],
        models: {
          replies: [
            { text: "h", usage: { input: 1000, output: 100 } },
            { text: "a", usage: { input: 1200, output: 40 } },
            { text: "b", usage: { input: 1, output: 1 } },
          ],
        },
      },
    );
    expect(run.result.outcome).toBe("succeeded");
    const completed = run.port.events.filter((e) => e.type === "model_turn_completed");
    expect(
      completed.map((e) => [
        e.cost_usd,
        e.section_tokens,
        e.section_cost_usd,
        e.task_tokens,
        e.task_cost_usd,
      ]),
    ).toEqual([
      ["0.0045", 1100, "0.0045", 1100, "0.0045"],
      ["0.0042", 1240, "0.0042", 2340, "0.0087"],
      ["0.000018", 1242, "0.004218", 2342, "0.008718"],
    ]);
    const { usage } = run.result;
    expect(usage.total).toMatchObject({ rounds: 3, costUsd: "0.008718", unpricedRounds: 0 });
    expect(usage.byModel.sonnet?.costUsd).toBe("0.008718");
    expect(usage.bySection.Main?.costUsd).toBe("0.004218");
    expect(usage.bySection.T?.costUsd).toBe("0.0045");
    expect(usage.byTask["0"]?.costUsd).toBe("0.008718");
    expect(usage.sections.map((s) => [s.entry, s.total.costUsd])).toEqual([
      ["0.0", "0.0045"],
      ["0.1", "0.004218"],
    ]);
  });

  it("leaves the cost unknown, never 0, once a round ran on a model without prices", async () => {
    const run = await runModelPrompt(
      modelPrompt("models.use('writer') models.infer('a') models.use('critic') models.infer('b')", {
        roles: "  writer: {}\n  critic: {}",
      }),
      {
        roles: [
          boundRole("writer", { model: "priced", prices: PRICED }),
          boundRole("critic", { model: "unpriced" }),
        ],
        models: {
          replies: [
            { text: "a", usage: { input: 10, output: 10 } },
            { text: "b", usage: { input: 10, output: 10 } },
          ],
        },
      },
    );
    const completed = run.port.events.filter((e) => e.type === "model_turn_completed");
    expect(completed.map((e) => [e.cost_usd, e.task_cost_usd, e.task_tokens])).toEqual([
      ["0.00018", "0.00018", 20],
      [null, null, 40],
    ]);
    const { usage } = run.result;
    expect(usage.total).toMatchObject({ costUsd: null, unpricedRounds: 1, rounds: 2 });
    expect(usage.byModel.priced).toMatchObject({ costUsd: "0.00018", unpricedRounds: 0 });
    expect(usage.byModel.unpriced).toMatchObject({ costUsd: null, unpricedRounds: 1 });
  });

  it("prices cached input tokens at the cached price", async () => {
    const run = await runModelPrompt(modelPrompt("models.use('writer') models.infer('x')"), {
      roles: [boundRole("writer", { prices: PRICED })],
      configure: (port) => {
        port.modelRound = async () => ({
          text: "x",
          toolCalls: [],
          finishReason: "stop",
          usage: { inputTokens: 1000, outputTokens: 0, cachedInputTokens: 800 },
        });
      },
    });
    expect(run.result.usage.total.costUsd).toBe("0.00084");
  });

  it("sums a spawned task's rounds under its own task id", async () => {
    const run = await runModelPrompt(
      [
        "---",
        "name: t",
        "description: d",
        "runvil: 0",
        "models:",
        "  writer: {}",
        "---",
        "",
        "# T",
        "",
        "## Main",
        "",
        "```lua",
        "models.use('writer') models.infer('main')",
        "tasks.join({ tasks.spawn('## Side') })",
        "return 'ok'",
        "```",
        "",
        "## Side",
        "",
        "```lua",
        "models.use('writer') models.infer('side')",
        "return 'side'",
        "```",
        "",
      ].join("\n"),
      {
        roles: [boundRole("writer", { prices: PRICED })],
        models: {
          replies: [
            { text: "m", usage: { input: 100, output: 0 } },
            { text: "s", usage: { input: 0, output: 100 } },
          ],
        },
      },
    );
    expect(run.result.outcome === "failed" ? run.result.error : run.result.outcome).toBe(
      "succeeded",
    );
    const { byTask } = run.result.usage;
    expect(Object.keys(byTask)).toEqual(["0", "0.0"]);
    expect(byTask["0"]?.costUsd).toBe("0.0003");
    expect(byTask["0.0"]?.costUsd).toBe("0.0015");
    const side = run.port.events.filter(
      (e) => e.type === "model_turn_completed" && e.section === "Side",
    );
    expect(
      side.map((e) => e.type === "model_turn_completed" && [e.task_tokens, e.section_tokens]),
    ).toEqual([[100, 100]]);
  });
});
