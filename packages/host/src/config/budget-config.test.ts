import { describe, expect, it } from "vitest";
import { HostConfigError } from "./host-config-error";
import { HOST_CONFIG_FILE, parseHostConfig } from "./parse-host-config";

function problem(budget: unknown): string {
  try {
    parseHostConfig(HOST_CONFIG_FILE, JSON.stringify({ plugins: [], budget }));
  } catch (error) {
    if (error instanceof HostConfigError) return error.message;
    throw error;
  }
  throw new Error("expected a HostConfigError");
}

describe("the budget of runvil.config.json", () => {
  it("reads run and section limits under the frontmatter's keys", () => {
    const config = parseHostConfig(
      HOST_CONFIG_FILE,
      JSON.stringify({
        plugins: [],
        budget: { run: { max_tokens: 200000, max_cost_usd: 1.5 }, section: { max_cost_usd: 0 } },
      }),
    );
    expect(config.budget).toEqual({
      run: { maxTokens: 200000, maxCostUsd: 1.5 },
      section: { maxCostUsd: 0 },
    });
    expect("budget" in parseHostConfig(HOST_CONFIG_FILE, '{"plugins":[]}')).toBe(false);
  });

  it("names the file and the key path in every error", () => {
    const cases: [unknown, string][] = [
      [
        5,
        'budget must be an object of run and section limits, such as { "run": { "max_cost_usd": 1.5 } }',
      ],
      [{ task: {} }, "budget.task is not a known key (known: run, section)"],
      [{ run: [] }, "budget.run must be an object of limits (max_tokens, max_cost_usd)"],
      [
        { run: { "max tokens": 1 } },
        'budget.run."max tokens" is not a known key (known: max_tokens, max_cost_usd)',
      ],
      [
        { run: { max_tokens: 1.5 } },
        "budget.run.max_tokens must be a whole number of at least 0, got 1.5",
      ],
      [
        { section: { max_tokens: "9" } },
        'budget.section.max_tokens must be a whole number of at least 0, got "9"',
      ],
      [
        { run: { max_cost_usd: -1 } },
        "budget.run.max_cost_usd must be a number of at least 0 (US dollars), got -1",
      ],
      [
        { run: { max_cost_usd: null } },
        "budget.run.max_cost_usd must be a number of at least 0 (US dollars), got null",
      ],
    ];
    for (const [budget, detail] of cases) {
      expect(problem(budget)).toBe(`runvil.config.json: ${detail}`);
    }
  });
});
