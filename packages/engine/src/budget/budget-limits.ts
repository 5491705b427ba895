import type { BudgetLimits, BudgetScope, RunBudget } from "@runvil/protocol";
import { Usd } from "../cost/usd";

/** Where a limit in force came from. */
export type BudgetSource = "frontmatter" | "host";

/** One limit in force: a scope, what it limits, the amount, and who set it. */
export type BudgetLimit =
  | {
      readonly scope: BudgetScope;
      readonly measure: "tokens";
      readonly limit: number;
      readonly from: BudgetSource;
    }
  | {
      readonly scope: BudgetScope;
      readonly measure: "cost_usd";
      readonly limit: Usd;
      readonly from: BudgetSource;
    };

const SCOPES: readonly BudgetScope[] = ["run", "section"];

/**
 * The limits in force for a run (docs/design/budgets.md): for each scope (run, section) and
 * measure (tokens, cost), the tighter of the prompt's frontmatter `budget:` and the Host's
 * (`RunCatalog.budget`, from runvil.config.json). An equal limit from both is named as the
 * frontmatter's. Throws a RangeError for a Host limit that is not a whole number (tokens) or a
 * finite number (dollars) of at least 0: the parser already refuses such a frontmatter.
 */
export function budgetLimits(
  frontmatter: RunBudget | undefined,
  host: RunBudget | undefined,
): readonly BudgetLimit[] {
  const limits: BudgetLimit[] = [];
  for (const scope of SCOPES) {
    const own = frontmatter?.[scope];
    const given = host?.[scope];
    const tokens = tighter(tokensOf(own, scope), tokensOf(given, scope), (a, b) => a - b);
    if (tokens !== undefined) limits.push({ scope, measure: "tokens", ...tokens });
    const cost = tighter(costOf(own, scope), costOf(given, scope), (a, b) => a.compare(b));
    if (cost !== undefined) limits.push({ scope, measure: "cost_usd", ...cost });
  }
  return limits;
}

function tighter<T>(
  own: T | undefined,
  given: T | undefined,
  compare: (a: T, b: T) => number,
): { limit: T; from: BudgetSource } | undefined {
  if (own !== undefined && (given === undefined || compare(own, given) <= 0)) {
    return { limit: own, from: "frontmatter" };
  }
  if (given !== undefined) return { limit: given, from: "host" };
  return undefined;
}

function tokensOf(limits: BudgetLimits | undefined, scope: BudgetScope): number | undefined {
  const value = limits?.maxTokens;
  if (value === undefined) return undefined;
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(
      `budget.${scope}.max_tokens must be a whole number of at least 0, got ${value}`,
    );
  }
  return value;
}

function costOf(limits: BudgetLimits | undefined, scope: BudgetScope): Usd | undefined {
  const value = limits?.maxCostUsd;
  if (value === undefined) return undefined;
  if (!Number.isFinite(value) || value < 0) {
    throw new RangeError(
      `budget.${scope}.max_cost_usd must be a number of at least 0 (US dollars), got ${value}`,
    );
  }
  return Usd.of(value);
}
