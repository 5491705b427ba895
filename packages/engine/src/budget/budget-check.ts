import type { RunModelRole } from "@runvil/protocol";
import { estimatedCost } from "../cost/round-cost";
import type { Usd } from "../cost/usd";
import { EngineError } from "../lua";
import { roundCauseText } from "../models/models-texts";
import { type CountedRound, costOf, type Sums, tokensOf, usageOf } from "../models/usage";
import type { RunContext } from "../run/run-context";
import type { Entry } from "../walk/entry";
import { type BudgetLimit, budgetLimits } from "./budget-limits";
import {
  actualExceededMessage,
  estimateRefusalMessage,
  unpricedRefusalMessage,
} from "./budget-texts";

const byRun = new WeakMap<RunContext, readonly BudgetLimit[]>();

/**
 * The run's limits in force (budget-limits.ts), built at first use from the prompt's
 * frontmatter and the Host's budget on the run catalog. Throws a RangeError for an invalid
 * Host budget; the Engine asks once before the run starts, so such a run never starts.
 */
export function runBudgetOf(ctx: RunContext): readonly BudgetLimit[] {
  let limits = byRun.get(ctx);
  if (limits === undefined) {
    limits = budgetLimits(ctx.prompt.frontmatter.budget, ctx.options.catalog.budget);
    byRun.set(ctx, limits);
  }
  return limits;
}

/** The round being checked: where it runs, its number, and its bound role. */
export interface BudgetRound {
  readonly entry: Entry;
  readonly turn: number;
  readonly label: string;
  readonly binding: RunModelRole;
}

function roundName(round: BudgetRound): string {
  return roundCauseText(round.turn, round.entry.name, round.binding.model, round.label);
}

/** A budget refusal: kind `lua`, a quota refusal, so uncaught it ends the run as `Quota`. */
function budgetError(round: BudgetRound, message: string): EngineError {
  return new EngineError(
    "lua",
    message,
    {},
    { quota: true, runErrorKind: "Quota", causeText: roundName(round) },
  );
}

function scopeSums(ctx: RunContext, limit: BudgetLimit, section: string): Readonly<Sums> {
  const usage = usageOf(ctx);
  return limit.scope === "run" ? usage.runSums() : usage.sectionSums(section);
}

function limitText(limit: BudgetLimit): number | string {
  return limit.measure === "tokens" ? limit.limit : limit.limit.toString();
}

/**
 * Checks every limit before a round is sent (docs/design/budgets.md): what the round's scope
 * has spent plus the most the round can spend (`request` tokens of estimate plus `output`
 * tokens of reply, priced as uncached input and output) must not pass the limit. A cost limit
 * on a model without prices cannot be checked and refuses the round too. A refusal emits
 * `budget_exceeded` (check `estimate`) and throws the quota error; nothing is sent.
 */
export function checkBeforeRound(round: BudgetRound, request: number, output: number): void {
  const { ctx } = round.entry;
  const limits = runBudgetOf(ctx);
  if (limits.length === 0) return;
  const section = round.entry.name;
  const prices = round.binding.prices;
  let priced: { most: Usd | undefined } | undefined; // the round's most cost, priced once
  for (const limit of limits) {
    const sums = scopeSums(ctx, limit, section);
    if (limit.measure === "tokens") {
      const spent = tokensOf(sums);
      const most = request + output;
      if (spent + most <= limit.limit) continue;
      report(round, limit, spent, "estimate", most);
      throw budgetError(
        round,
        estimateRefusalMessage(
          roundName(round),
          limit,
          section,
          String(spent),
          String(most),
          request,
          output,
        ),
      );
    }
    const spent = costOf(sums);
    priced ??= { most: estimatedCost(request, output, prices) };
    const { most } = priced;
    if (spent === undefined || most === undefined) {
      report(round, limit, spent?.toString() ?? "unknown", "estimate", most?.toString());
      throw budgetError(round, unpricedRefusalMessage(roundName(round), limit, section));
    }
    if (spent.plus(most).compare(limit.limit) <= 0) continue;
    report(round, limit, spent.toString(), "estimate", most.toString());
    throw budgetError(
      round,
      estimateRefusalMessage(
        roundName(round),
        limit,
        section,
        spent.toString(),
        most.toString(),
        request,
        output,
      ),
    );
  }
}

/**
 * Checks every limit once a round's reply is counted (`counted`, its usage `tokens` and `cost`):
 * a scope past its limit emits `budget_exceeded` (check `actual`) and throws the quota error.
 * The round's usage stays counted: the provider has billed it.
 */
export function checkAfterRound(
  round: BudgetRound,
  counted: CountedRound,
  tokens: number,
  cost: Usd | undefined,
): void {
  const limits = runBudgetOf(round.entry.ctx);
  if (limits.length === 0) return;
  const section = round.entry.name;
  for (const limit of limits) {
    const sums = limit.scope === "run" ? counted.run : counted.section;
    if (limit.measure === "tokens") {
      const spent = tokensOf(sums);
      if (spent <= limit.limit) continue;
      report(round, limit, spent, "actual");
      throw budgetError(
        round,
        actualExceededMessage(roundName(round), limit, section, String(spent), String(tokens)),
      );
    }
    const spent = costOf(sums);
    // Unknown costs were refused before the round was sent (checkBeforeRound).
    if (spent === undefined || cost === undefined || spent.compare(limit.limit) <= 0) continue;
    report(round, limit, spent.toString(), "actual");
    throw budgetError(
      round,
      actualExceededMessage(roundName(round), limit, section, spent.toString(), cost.toString()),
    );
  }
}

function report(
  round: BudgetRound,
  limit: BudgetLimit,
  spent: number | string,
  check: "estimate" | "actual",
  most?: number | string,
): void {
  round.entry.ctx.emit(round.entry.source, "budget_exceeded", {
    turn: round.turn,
    role: round.label,
    model: round.binding.model,
    scope: limit.scope,
    measure: limit.measure,
    from: limit.from,
    limit: limitText(limit),
    spent,
    check,
    ...(most === undefined ? {} : { round: most }),
  });
}
