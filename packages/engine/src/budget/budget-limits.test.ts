import { describe, expect, it } from "vitest";
import { budgetLimits } from "./budget-limits";

function shown(limits: ReturnType<typeof budgetLimits>): string[] {
  return limits.map((l) => `${l.scope}.${l.measure} ${l.limit.toString()} ${l.from}`);
}

describe("budgetLimits", () => {
  it("takes the tighter limit of the frontmatter and the Host, each scope and measure apart", () => {
    const limits = budgetLimits(
      { run: { maxTokens: 1000, maxCostUsd: 2 }, section: { maxCostUsd: 0.1 } },
      { run: { maxTokens: 5000, maxCostUsd: 0.5 }, section: { maxTokens: 300 } },
    );
    expect(shown(limits)).toEqual([
      "run.tokens 1000 frontmatter",
      "run.cost_usd 0.5 host",
      "section.tokens 300 host",
      "section.cost_usd 0.1 frontmatter",
    ]);
  });

  it("names an equal limit as the frontmatter's", () => {
    expect(shown(budgetLimits({ run: { maxCostUsd: 0.3 } }, { run: { maxCostUsd: 0.3 } }))).toEqual(
      ["run.cost_usd 0.3 frontmatter"],
    );
  });

  it("has no limits without a budget", () => {
    expect(budgetLimits(undefined, undefined)).toEqual([]);
    expect(budgetLimits({}, { run: {} })).toEqual([]);
  });

  it("refuses a Host limit no run can apply", () => {
    expect(() => budgetLimits(undefined, { run: { maxTokens: -1 } })).toThrow(
      "budget.run.max_tokens must be a whole number of at least 0, got -1",
    );
    expect(() => budgetLimits(undefined, { section: { maxCostUsd: Number.NaN } })).toThrow(
      "budget.section.max_cost_usd must be a number of at least 0 (US dollars), got NaN",
    );
  });
});
