import type { BudgetLimit } from "./budget-limits";

/** `run.max_tokens, from the frontmatter`: which limit, and who set it. */
function limitName(limit: BudgetLimit): string {
  const key = limit.measure === "tokens" ? "max_tokens" : "max_cost_usd";
  const from = limit.from === "frontmatter" ? "the frontmatter" : "the Host's config";
  return `${limit.scope}.${key}, from ${from}`;
}

/** `the run` / ``section `Draft` ``. */
function scopeName(limit: BudgetLimit, section: string): string {
  return limit.scope === "run" ? "the run" : `section \`${section}\``;
}

/** The limit itself: `a 1000-token budget` / `a $0.5 budget`. */
function budgetText(limit: BudgetLimit): string {
  return limit.measure === "tokens"
    ? `its ${limit.limit}-token budget`
    : `its $${limit.limit.toString()} budget`;
}

/**
 * The refusal of a round before it is sent: ``budget exceeded: model round 3 of section Draft
 * on m (role writer) may use up to 450 tokens (a 250-token request and up to 200 output
 * tokens), and the run has spent 800 of its 1000-token budget (run.max_tokens, from the
 * frontmatter); the round was not sent``.
 */
export function estimateRefusalMessage(
  round: string,
  limit: BudgetLimit,
  section: string,
  spent: string,
  most: string,
  request: number,
  output: number,
): string {
  const may =
    limit.measure === "tokens"
      ? `may use up to ${most} tokens (a ${request}-token request and up to ${output} output tokens)`
      : `may cost up to $${most} (a ${request}-token request and up to ${output} output tokens)`;
  const spentText = limit.measure === "tokens" ? spent : `$${spent}`;
  return `budget exceeded: ${round} ${may}, and ${scopeName(limit, section)} has spent ${spentText} of ${budgetText(limit)} (${limitName(limit)}); the round was not sent`;
}

/**
 * The failure of a round whose reply crossed a limit: ``budget exceeded: model round 3 of
 * section Draft on m (role writer) used 430 tokens, bringing the run to 1230 of its 1000-token
 * budget (run.max_tokens, from the frontmatter)``.
 */
export function actualExceededMessage(
  round: string,
  limit: BudgetLimit,
  section: string,
  spent: string,
  used: string,
): string {
  const did = limit.measure === "tokens" ? `used ${used} tokens` : `cost $${used}`;
  const spentText = limit.measure === "tokens" ? spent : `$${spent}`;
  return `budget exceeded: ${round} ${did}, bringing ${scopeName(limit, section)} to ${spentText} of ${budgetText(limit)} (${limitName(limit)})`;
}

/**
 * A cost limit that cannot be checked, because the round's model has no prices (or a round
 * before it had none): ``budget cannot be checked: model round 1 of section Draft on llama
 * (role writer) runs on a model without prices, and the run has a cost budget of $0.5
 * (run.max_cost_usd, from the frontmatter); give the model prices in the catalog, or remove
 * the cost budget; the round was not sent``.
 */
export function unpricedRefusalMessage(round: string, limit: BudgetLimit, section: string): string {
  const limitText = limit.measure === "cost_usd" ? `$${limit.limit.toString()}` : "";
  return `budget cannot be checked: ${round} runs on a model without prices, and ${scopeName(limit, section)} has a cost budget of ${limitText} (${limitName(limit)}); give the model prices in the catalog, or remove the cost budget; the round was not sent`;
}
