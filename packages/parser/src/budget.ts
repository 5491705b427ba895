import { isMap, isScalar, type Pair } from "yaml";
import { type Checked, failed, frontmatterError } from "./errors";
import type { BudgetLimits, PromptBudget } from "./types";
import {
  describeNode,
  positionOf,
  resolveNode,
  stringValue,
  type ValueNode,
  type YamlSource,
} from "./yaml-nodes";

/** The scopes under `budget:`, in the order messages list them. */
export const BUDGET_SCOPES = ["run", "section"] as const;

/** The limits of one scope, in the order messages list them. */
export const BUDGET_LIMITS = ["max_tokens", "max_cost_usd"] as const;

type Scope = (typeof BUDGET_SCOPES)[number];
type Limit = (typeof BUDGET_LIMITS)[number];

const EXAMPLE = "budget: { run: { max_tokens: 200000, max_cost_usd: 1.5 } }";

/**
 * Checks the value of `budget:` (docs/design/budgets.md): a mapping of scopes (`run`, `section`)
 * to limits (`max_tokens`: a whole number ≥ 0; `max_cost_usd`: a number ≥ 0, US dollars). Every
 * key is optional. An unknown key, a key that is not a string, or a value of the wrong type is
 * a Frontmatter error naming the line of the key at fault.
 */
export function checkBudget(
  source: YamlSource,
  value: unknown,
  keyLine: number,
): Checked<PromptBudget> {
  const node = resolveNode(source, value);
  if (node === undefined || !isMap(node)) {
    return failed(
      frontmatterError(
        `\`budget\` must be a mapping of run and section limits, such as \`${EXAMPLE}\`, found ${describeNode(node)}`,
        keyLine,
      ),
    );
  }
  const budget: PromptBudget = {};
  for (const pair of node.items) {
    const key = keyOf(source, pair, "budget", BUDGET_SCOPES, "keys");
    if (!key.ok) return key;
    const limits = checkLimits(source, key.value, pair.value, key.line);
    if (!limits.ok) return limits;
    budget[key.value] = limits.value;
  }
  return { ok: true, value: budget };
}

/** A mapping key that must be one of `known`, with its line. */
function keyOf<K extends string>(
  source: YamlSource,
  pair: Pair,
  path: string,
  known: readonly K[],
  what: string,
): Checked<K> & { line: number } {
  const line = positionOf(source, pair.key).line;
  const keyNode = resolveNode(source, pair.key);
  const key = stringValue(keyNode);
  if (key === undefined) {
    const error = frontmatterError(
      `the keys of \`${path}\` must be strings, found ${describeNode(keyNode)}`,
      line,
    );
    return { ...failed(error), line };
  }
  if (!(known as readonly string[]).includes(key)) {
    const error = frontmatterError(
      `\`${path}\` has an unknown key \`${key}\`; the known ${what} are ${known.join(", ")}`,
      line,
    );
    return { ...failed(error), line };
  }
  return { ok: true, value: key as K, line };
}

function checkLimits(
  source: YamlSource,
  scope: Scope,
  value: unknown,
  line: number,
): Checked<BudgetLimits> {
  const path = `budget.${scope}`;
  const node = resolveNode(source, value);
  if (node === undefined || !isMap(node)) {
    return failed(
      frontmatterError(
        `\`${path}\` must be a mapping of limits (${BUDGET_LIMITS.join(", ")}), found ${describeNode(node)}`,
        line,
      ),
    );
  }
  const limits: BudgetLimits = {};
  for (const pair of node.items) {
    const key = keyOf<Limit>(source, pair, path, BUDGET_LIMITS, "limits");
    if (!key.ok) return key;
    const limit = resolveNode(source, pair.value);
    const number = numberValue(limit);
    if (key.value === "max_tokens") {
      if (number === undefined || !Number.isSafeInteger(number) || number < 0) {
        return mustBe(`${path}.max_tokens`, "a whole number of at least 0", limit, key.line);
      }
      limits.maxTokens = number;
    } else {
      if (number === undefined || !Number.isFinite(number) || number < 0) {
        return mustBe(
          `${path}.max_cost_usd`,
          "a number of at least 0 (US dollars)",
          limit,
          key.line,
        );
      }
      limits.maxCostUsd = number;
    }
  }
  return { ok: true, value: limits };
}

/** The number a scalar holds (finite or not), or undefined for anything else. */
function numberValue(node: ValueNode | undefined): number | undefined {
  if (node === undefined || !isScalar(node)) return undefined;
  return typeof node.value === "number" ? node.value : undefined;
}

function mustBe(
  path: string,
  expected: string,
  node: ValueNode | undefined,
  line: number,
): Checked<never> {
  const value = numberValue(node);
  const found = value !== undefined && Number.isFinite(value) ? String(value) : describeNode(node);
  return failed(frontmatterError(`\`${path}\` must be ${expected}, found ${found}`, line));
}
