import type { RunUsage } from "@runvil/protocol";
import type { CliIo } from "../io";
import type { RunEnd } from "../run/run-handle";

/** `1 round` / `3 rounds`. */
function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * The end-of-run line of `runvil run` (docs/design/cost.md): the run's model rounds, tokens
 * and cost, such as `model usage: 2 rounds, 2250 tokens (2200 input of which 800 cached, 50
 * output), cost $0.00519`. An unknown cost says how many rounds ran on a model without prices.
 */
export function formatCostLine(usage: RunUsage): string {
  const total = usage.total;
  if (total.rounds === 0) return "model usage: no model rounds, cost $0";
  const cached = total.cachedInputTokens > 0 ? ` of which ${total.cachedInputTokens} cached` : "";
  const tokens = `${total.inputTokens + total.outputTokens} tokens (${total.inputTokens} input${cached}, ${total.outputTokens} output)`;
  const cost =
    total.costUsd === null
      ? `cost unknown (${total.unpricedRounds} of ${count(total.rounds, "round", "rounds")} ran on a model without prices)`
      : `cost $${total.costUsd}`;
  return `model usage: ${count(total.rounds, "round", "rounds")}, ${tokens}, ${cost}`;
}

/** When `runvil run` prints the cost line. */
export interface CostLineOptions {
  /** `--cost`: always, even for a run without model rounds or with `--json`. */
  readonly cost: boolean;
  /** `--json`: stdout is a JSON object; the line then needs `--cost`. */
  readonly json: boolean;
}

/**
 * Prints the cost line on stderr once a run has finished: with `--cost`, or when stderr is a
 * terminal and the run made model rounds (never with `--json` unless asked). Never on stdout,
 * so a piped result stays the result alone.
 */
export function printCostLine(end: RunEnd, options: CostLineOptions, io: CliIo): void {
  if (end.kind !== "report" || end.report.kind !== "finished") return;
  const { usage } = end.report.result;
  const wanted =
    options.cost || (io.stderrIsTTY === true && !options.json && usage.total.rounds > 0);
  if (wanted) io.stderr(`${formatCostLine(usage)}\n`);
}
