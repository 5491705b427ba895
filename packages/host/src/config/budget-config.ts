import type { BudgetLimits, RunBudget } from "@runvil/protocol";
import { HostConfigError } from "./host-config-error";

const SCOPES = ["run", "section"] as const;
const LIMITS = ["max_tokens", "max_cost_usd"] as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function unknownKey(
  file: string,
  record: Record<string, unknown>,
  path: string,
  known: readonly string[],
): void {
  for (const key of Object.keys(record)) {
    if (known.includes(key)) continue;
    const step = /^[A-Za-z_$][A-Za-z0-9_$-]*$/.test(key) ? key : JSON.stringify(key);
    throw new HostConfigError(
      file,
      `${path}.${step} is not a known key (known: ${known.join(", ")})`,
    );
  }
}

/**
 * Checks the `budget` of a configuration file (docs/design/budgets.md): the same keys as the
 * frontmatter's `budget:`, `{ "run"?: limits, "section"?: limits }` with limits
 * `{ "max_tokens"?: whole ≥ 0, "max_cost_usd"?: number ≥ 0 }`. Throws a HostConfigError naming
 * `file` and the key path.
 */
export function readBudgetConfig(file: string, value: unknown): RunBudget {
  if (!isRecord(value)) {
    throw new HostConfigError(
      file,
      'budget must be an object of run and section limits, such as { "run": { "max_cost_usd": 1.5 } }',
    );
  }
  unknownKey(file, value, "budget", SCOPES);
  const budget: { run?: BudgetLimits; section?: BudgetLimits } = {};
  for (const scope of SCOPES) {
    if (value[scope] !== undefined) budget[scope] = readLimits(file, value[scope], scope);
  }
  return budget;
}

function readLimits(file: string, value: unknown, scope: string): BudgetLimits {
  const path = `budget.${scope}`;
  if (!isRecord(value)) {
    throw new HostConfigError(file, `${path} must be an object of limits (${LIMITS.join(", ")})`);
  }
  unknownKey(file, value, path, LIMITS);
  const limits: { maxTokens?: number; maxCostUsd?: number } = {};
  const tokens = value.max_tokens;
  if (tokens !== undefined) {
    if (typeof tokens !== "number" || !Number.isSafeInteger(tokens) || tokens < 0) {
      throw new HostConfigError(
        file,
        `${path}.max_tokens must be a whole number of at least 0, got ${JSON.stringify(tokens)}`,
      );
    }
    limits.maxTokens = tokens;
  }
  const cost = value.max_cost_usd;
  if (cost !== undefined) {
    if (typeof cost !== "number" || !Number.isFinite(cost) || cost < 0) {
      throw new HostConfigError(
        file,
        `${path}.max_cost_usd must be a number of at least 0 (US dollars), got ${JSON.stringify(cost)}`,
      );
    }
    limits.maxCostUsd = cost;
  }
  return limits;
}
