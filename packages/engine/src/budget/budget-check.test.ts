import type { RunBudget } from "@runvil/protocol";
import { describe, expect, it } from "vitest";
import { modelPrompt, runModelPrompt } from "../models/test-support/model-run";
import { boundRole } from "../models/test-support/scripted-rounds";

const PRICED = { inputPerMillion: 3, outputPerMillion: 15 };

/** A prompt with a `budget:` frontmatter key and one `## Main` section of Lua. */
function budgetPrompt(budget: string, lua: string, h1?: string): string {
  const text = modelPrompt(lua, h1 === undefined ? {} : { h1 });
  return text.replace("runvil: 0\n", `runvil: 0\nbudget: ${budget}\n`);
}

function failure(run: Awaited<ReturnType<typeof runModelPrompt>>) {
  if (run.result.outcome !== "failed")
    throw new Error(`expected a failed run: ${run.result.outcome}`);
  return run.result.error;
}

async function runWith(
  text: string,
  options: { maxOutput?: number; prices?: typeof PRICED; host?: RunBudget; replies?: number[][] },
) {
  const replies = (options.replies ?? []).map(([input = 0, output = 0], i) => ({
    text: `r${i}`,
    usage: { input, output },
  }));
  return runModelPrompt(text, {
    roles: [
      boundRole("writer", {
        model: "m",
        maxOutputTokens: 1000,
        settings: options.maxOutput === undefined ? {} : { maxOutputTokens: options.maxOutput },
        ...(options.prices === undefined ? {} : { prices: options.prices }),
      }),
    ],
    models: { replies },
    ...(options.host === undefined ? {} : { hostBudget: options.host }),
  });
}

describe("budgets", () => {
  it("ends the run as Quota when a reply crosses the run's token budget", async () => {
    const run = await runWith(
      budgetPrompt(
        "{ run: { max_tokens: 100 } }",
        "models.use('writer') for i = 1, 10 do models.infer('x') end",
      ),
      // Each estimate is 5 + 10 tokens; the second reply reports far more than that.
      {
        maxOutput: 10,
        replies: [
          [5, 5],
          [200, 5],
        ],
      },
    );
    const error = failure(run);
    expect(error.kind).toBe("Quota");
    expect(error.message).toBe(
      "budget exceeded: model round 2 of section Main on m (role writer) used 205 tokens, bringing the run to 215 of its 100-token budget (run.max_tokens, from the frontmatter)",
    );
    expect(error.causes).toEqual(["model round 2 of section Main on m (role writer)"]);
    expect(run.port.modelRequests).toHaveLength(2);
    expect(run.result.usage.total.rounds).toBe(2);
    const events = run.port.events.filter((e) => e.type === "budget_exceeded");
    expect(events).toMatchObject([
      {
        turn: 2,
        role: "writer",
        model: "m",
        scope: "run",
        measure: "tokens",
        from: "frontmatter",
        limit: 100,
        spent: 215,
        check: "actual",
      },
    ]);
  });

  it("refuses a round before it is sent when its estimate plus its max output would cross", async () => {
    const run = await runWith(
      budgetPrompt(
        "{ run: { max_tokens: 70 } }",
        "models.use('writer') models.infer('x') models.infer('y')",
      ),
      {
        maxOutput: 40,
        replies: [
          [30, 5],
          [30, 5],
        ],
      },
    );
    const error = failure(run);
    expect(error.kind).toBe("Quota");
    expect(error.message).toBe(
      "budget exceeded: model round 2 of section Main on m (role writer) may use up to 45 tokens (a 5-token request and up to 40 output tokens), and the run has spent 35 of its 70-token budget (run.max_tokens, from the frontmatter); the round was not sent",
    );
    expect(run.port.modelRequests).toHaveLength(1);
    expect(run.port.events.filter((e) => e.type === "model_turn_started")).toHaveLength(1);
    expect(run.port.events.find((e) => e.type === "budget_exceeded")).toMatchObject({
      check: "estimate",
      spent: 35,
      round: 45,
      turn: 2,
    });
  });

  it("estimates with the model's max output when the role sets none", async () => {
    const run = await runWith(
      budgetPrompt("{ run: { max_tokens: 500 } }", "models.use('writer') models.infer('x')"),
      {},
    );
    expect(failure(run).message).toContain(
      "may use up to 1005 tokens (a 5-token request and up to 1000 output tokens)",
    );
    expect(run.port.modelRequests).toHaveLength(0);
  });

  it("counts a section budget over every entry of that section, each section apart", async () => {
    const text = modelPrompt(
      [
        "models.use('writer')",
        "models.infer('x')",
        "var.n = (var.n or 0) + 1",
        "if var.n < 3 then jump('## Main') end",
      ].join("\n"),
      { h1: "models.use('writer') models.infer('h1')" },
    ).replace("runvil: 0\n", "runvil: 0\nbudget: { section: { max_cost_usd: 0.0004 } }\n");
    const run = await runWith(text, {
      prices: PRICED,
      maxOutput: 10,
      replies: [
        [10, 10],
        [10, 10],
        [10, 10],
        [10, 10],
      ],
    });
    // Each round costs 10 × 3 + 10 × 15 = 180 micro-dollars, and the estimate of the next is
    // 5 × 3 + 10 × 15 = 165; the H1 pass is its own section.
    const error = failure(run);
    expect(error.kind).toBe("Quota");
    expect(error.message).toBe(
      "budget exceeded: model round 1 of section Main on m (role writer) may cost up to $0.000165 (a 5-token request and up to 10 output tokens), and section `Main` has spent $0.00036 of its $0.0004 budget (section.max_cost_usd, from the frontmatter); the round was not sent",
    );
    expect(run.port.modelRequests).toHaveLength(3);
    expect(run.result.usage.bySection).toMatchObject({
      Main: { costUsd: "0.00036" },
      T: { costUsd: "0.00018" },
    });
  });

  it("fails a round whose actual cost crosses the run's cost budget", async () => {
    const run = await runWith(
      budgetPrompt("{ run: { max_cost_usd: 0.001 } }", "models.use('writer') models.infer('x')"),
      { prices: PRICED, maxOutput: 10, replies: [[400, 0]] },
    );
    // The estimate (5 tokens in, 10 out) fits; the reply reports 400 input tokens: $0.0012.
    expect(failure(run).message).toBe(
      "budget exceeded: model round 1 of section Main on m (role writer) cost $0.0012, bringing the run to $0.0012 of its $0.001 budget (run.max_cost_usd, from the frontmatter)",
    );
    expect(run.result.usage.total.costUsd).toBe("0.0012");
  });

  it("refuses a round on a model without prices while a cost budget applies", async () => {
    const run = await runWith(
      budgetPrompt("{ run: { max_cost_usd: 5 } }", "models.use('writer') models.infer('x')"),
      { replies: [[1, 1]] },
    );
    const error = failure(run);
    expect(error.kind).toBe("Quota");
    expect(error.message).toBe(
      "budget cannot be checked: model round 1 of section Main on m (role writer) runs on a model without prices, and the run has a cost budget of $5 (run.max_cost_usd, from the frontmatter); give the model prices in the catalog, or remove the cost budget; the round was not sent",
    );
    expect(run.port.modelRequests).toHaveLength(0);
  });

  it("applies the Host's budget, and the tighter limit wins", async () => {
    const lua = "models.use('writer') models.infer('x') models.infer('y')";
    const host = await runWith(modelPrompt(lua), {
      maxOutput: 10,
      host: { run: { maxTokens: 20 } },
      replies: [
        [5, 5],
        [5, 5],
      ],
    });
    expect(failure(host).message).toContain("(run.max_tokens, from the Host's config)");
    const tighter = await runWith(budgetPrompt("{ run: { max_tokens: 15 } }", lua), {
      maxOutput: 10,
      host: { run: { maxTokens: 20 } },
      replies: [
        [5, 5],
        [5, 5],
      ],
    });
    expect(failure(tighter).message).toContain(
      "of its 15-token budget (run.max_tokens, from the frontmatter)",
    );
  });

  it("lets pcall catch the refusal, and every later round stays refused", async () => {
    const run = await runWith(
      budgetPrompt(
        "{ run: { max_tokens: 30 } }",
        [
          "models.use('writer')",
          "models.infer('x')",
          "local ok, err = pcall(models.infer, 'y')",
          "local again = select(2, pcall(models.infer, 'z'))",
          "return tostring(ok) .. '|' .. err.kind .. '|' .. again.kind",
        ].join("\n"),
      ),
      {
        maxOutput: 10,
        replies: [
          [10, 10],
          [10, 10],
        ],
      },
    );
    expect(run.result.outcome === "succeeded" && run.result.result).toBe("false|lua|lua");
    expect(run.port.modelRequests).toHaveLength(1);
  });

  it("never refuses a run without a budget", async () => {
    const run = await runWith(modelPrompt("models.use('writer') return models.infer('x')"), {
      replies: [[1_000_000, 1_000_000]],
    });
    expect(run.result.outcome).toBe("succeeded");
    expect(run.port.events.some((e) => e.type === "budget_exceeded")).toBe(false);
  });

  it("refuses to start with a Host budget no run can apply", async () => {
    await expect(
      runWith(modelPrompt("return 'x'"), { host: { run: { maxTokens: 1.5 } } }),
    ).rejects.toThrow("budget.run.max_tokens must be a whole number of at least 0, got 1.5");
  });
});
