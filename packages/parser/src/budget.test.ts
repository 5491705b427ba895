import { describe, expect, it } from "vitest";
import { checkFrontmatter } from "./frontmatter";
import { findFrontmatter } from "./frontmatter-fence";
import { Lines } from "./lines";

/** Checks the frontmatter made of `yaml` lines after the required keys (lines 2–4). */
function check(...yaml: string[]) {
  const text = ["---", "name: n", "description: d", "runvil: 0", ...yaml, "---", ""].join("\n");
  const found = findFrontmatter(new Lines(text));
  if (!found.ok) throw new Error(found.error.message);
  return checkFrontmatter(found.fence);
}

function errorOf(...yaml: string[]): string {
  const result = check(...yaml);
  if (result.ok) throw new Error("expected a Frontmatter error");
  expect(result.error.kind).toBe("Frontmatter");
  return result.error.message;
}

describe("budget:", () => {
  it("reads run and section limits", () => {
    const result = check(
      "budget:",
      "  run: { max_tokens: 200000, max_cost_usd: 1.5 }",
      "  section:",
      "    max_cost_usd: 0.25",
    );
    expect(result.ok && result.value.budget).toEqual({
      run: { maxTokens: 200000, maxCostUsd: 1.5 },
      section: { maxCostUsd: 0.25 },
    });
  });

  it("is absent when the key is, and empty mappings set no limit", () => {
    const none = check();
    expect(none.ok && "budget" in none.value).toBe(false);
    const empty = check("budget: { run: {} }");
    expect(empty.ok && empty.value.budget).toEqual({ run: {} });
  });

  it("takes 0 as a limit (no round may spend anything)", () => {
    const result = check("budget: { run: { max_tokens: 0, max_cost_usd: 0 } }");
    expect(result.ok && result.value.budget).toEqual({ run: { maxTokens: 0, maxCostUsd: 0 } });
  });

  it("refuses a budget that is not a mapping", () => {
    expect(errorOf("budget: 5")).toBe(
      "invalid frontmatter: `budget` must be a mapping of run and section limits, such as `budget: { run: { max_tokens: 200000, max_cost_usd: 1.5 } }`, found a number (line 5)",
    );
  });

  it("refuses an unknown scope, on its own line", () => {
    expect(errorOf("budget:", "  run: {}", "  task: {}")).toBe(
      "invalid frontmatter: `budget` has an unknown key `task`; the known keys are run, section (line 7)",
    );
  });

  it("refuses a scope that is not a mapping", () => {
    expect(errorOf("budget:", "  section: 100")).toBe(
      "invalid frontmatter: `budget.section` must be a mapping of limits (max_tokens, max_cost_usd), found a number (line 6)",
    );
  });

  it("refuses an unknown limit, naming the known ones", () => {
    expect(errorOf("budget:", "  run:", "    max_token: 5")).toBe(
      "invalid frontmatter: `budget.run` has an unknown key `max_token`; the known limits are max_tokens, max_cost_usd (line 7)",
    );
  });

  it("refuses a key that is not a string", () => {
    expect(errorOf("budget:", "  1: {}")).toBe(
      "invalid frontmatter: the keys of `budget` must be strings, found a number (line 6)",
    );
  });

  it("refuses token limits that are not whole numbers of at least 0", () => {
    expect(errorOf("budget: { run: { max_tokens: 2.5 } }")).toBe(
      "invalid frontmatter: `budget.run.max_tokens` must be a whole number of at least 0, found 2.5 (line 5)",
    );
    expect(errorOf("budget:", "  section:", "    max_tokens: -1")).toBe(
      "invalid frontmatter: `budget.section.max_tokens` must be a whole number of at least 0, found -1 (line 7)",
    );
    expect(errorOf("budget: { run: { max_tokens: lots } }")).toBe(
      "invalid frontmatter: `budget.run.max_tokens` must be a whole number of at least 0, found a string (line 5)",
    );
  });

  it("refuses cost limits that are not numbers of at least 0", () => {
    expect(errorOf("budget: { run: { max_cost_usd: '$1' } }")).toBe(
      "invalid frontmatter: `budget.run.max_cost_usd` must be a number of at least 0 (US dollars), found a string (line 5)",
    );
    expect(errorOf("budget: { run: { max_cost_usd: -0.5 } }")).toBe(
      "invalid frontmatter: `budget.run.max_cost_usd` must be a number of at least 0 (US dollars), found -0.5 (line 5)",
    );
    expect(errorOf("budget: { run: { max_cost_usd: .inf } }")).toBe(
      "invalid frontmatter: `budget.run.max_cost_usd` must be a number of at least 0 (US dollars), found Infinity (line 5)",
    );
  });
});
