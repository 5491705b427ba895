import type { RunUsage, SectionUsage, TokenUsage } from "@runvil/protocol";
import type { ModelUsage } from "@runvil/sdk";
import { Usd } from "../cost/usd";
import type { RunContext } from "../run/run-context";
import type { Entry } from "../walk/entry";

/** Mutable token and cost sums. */
export interface Sums {
  rounds: number;
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  reasoningTokens: number;
  /** The cost of the priced rounds. */
  cost: Usd;
  /** Rounds on a model without prices. */
  unpricedRounds: number;
}

/** Empty sums. */
export function zeroSums(): Sums {
  return {
    rounds: 0,
    inputTokens: 0,
    outputTokens: 0,
    cachedInputTokens: 0,
    reasoningTokens: 0,
    cost: Usd.ZERO,
    unpricedRounds: 0,
  };
}

/** What budgets count as a scope's tokens: input plus output. */
export function tokensOf(sums: Sums): number {
  return sums.inputTokens + sums.outputTokens;
}

/** The scope's cost, or undefined when a round of it ran on a model without prices. */
export function costOf(sums: Sums): Usd | undefined {
  return sums.unpricedRounds > 0 ? undefined : sums.cost;
}

/** The cost as events and results write it: decimal text, or null when unknown. */
export function costText(cost: Usd | undefined): string | null {
  return cost === undefined ? null : cost.toString();
}

function addRound(sums: Sums, usage: ModelUsage, cost: Usd | undefined): void {
  sums.rounds += 1;
  sums.inputTokens += usage.inputTokens;
  sums.outputTokens += usage.outputTokens;
  sums.cachedInputTokens += usage.cachedInputTokens ?? 0;
  sums.reasoningTokens += usage.reasoningTokens ?? 0;
  if (cost === undefined) sums.unpricedRounds += 1;
  else sums.cost = sums.cost.plus(cost);
}

function addSums(into: Sums, part: Sums): void {
  into.rounds += part.rounds;
  into.inputTokens += part.inputTokens;
  into.outputTokens += part.outputTokens;
  into.cachedInputTokens += part.cachedInputTokens;
  into.reasoningTokens += part.reasoningTokens;
  into.cost = into.cost.plus(part.cost);
  into.unpricedRounds += part.unpricedRounds;
}

function frozen(sums: Sums): TokenUsage {
  const { cost: _cost, ...counts } = sums;
  return { ...counts, costUsd: costText(costOf(sums)) };
}

function recordOf(
  map: ReadonlyMap<string, Sums>,
  order: (a: string, b: string) => number,
): Record<string, TokenUsage> {
  const out: Record<string, TokenUsage> = {};
  for (const key of [...map.keys()].sort(order)) out[key] = frozen(map.get(key) ?? zeroSums());
  return out;
}

function byText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Compares entry ids (`0.1`, `0.10`, `0.1.2`) by their numeric segments. */
export function compareEntryIds(a: string, b: string): number {
  const x = a.split(".");
  const y = b.split(".");
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = Number(x[i]) - Number(y[i]);
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

interface EntrySums {
  readonly entry: string;
  readonly section: string;
  readonly chain: string;
  readonly task: string;
  readonly total: Sums;
  readonly byModel: Map<string, Sums>;
}

/** The sums a round was counted into, as they stand after it. */
export interface CountedRound {
  /** The round's section entry (sequential: what its events report). */
  readonly entry: Readonly<Sums>;
  /** Every entry of the round's section (what a section budget counts). */
  readonly section: Readonly<Sums>;
  /** The round's task (sequential: what its events report). */
  readonly task: Readonly<Sums>;
  /** The run. */
  readonly run: Readonly<Sums>;
}

function sumsIn(map: Map<string, Sums>, key: string): Sums {
  let sums = map.get(key);
  if (sums === undefined) {
    sums = zeroSums();
    map.set(key, sums);
  }
  return sums;
}

/**
 * Adds up the usage and cost of a run's completed model rounds (docs/design/loop.md §10,
 * docs/design/cost.md), per section entry and catalog model, and as running sums per section
 * entry and per task (what the round events report), per section name and for the run (what
 * budgets check); failed requests add nothing.
 */
export class UsageRecorder {
  private readonly entries = new Map<string, EntrySums>();
  private readonly sections = new Map<string, Sums>();
  private readonly tasks = new Map<string, Sums>();
  private readonly total = zeroSums();

  /** Adds one completed round of `entry` on `model`, costing `cost` (undefined: unknown). */
  add(entry: Entry, model: string, usage: ModelUsage, cost: Usd | undefined): CountedRound {
    let sums = this.entries.get(entry.id);
    if (sums === undefined) {
      sums = {
        entry: entry.id,
        section: entry.name,
        chain: entry.chain.id,
        task: entry.chain.taskId,
        total: zeroSums(),
        byModel: new Map(),
      };
      this.entries.set(entry.id, sums);
    }
    addRound(sumsIn(sums.byModel, model), usage, cost);
    const section = sumsIn(this.sections, entry.name);
    const task = sumsIn(this.tasks, entry.chain.taskId);
    for (const target of [sums.total, section, task, this.total]) addRound(target, usage, cost);
    return { entry: sums.total, section, task, run: this.total };
  }

  /** The sums so far of every entry of section `name` (zero before its first round). */
  sectionSums(name: string): Readonly<Sums> {
    return this.sections.get(name) ?? zeroSums();
  }

  /** The run's sums so far. */
  runSums(): Readonly<Sums> {
    return this.total;
  }

  /** The run's usage as the run result carries it. */
  usage(): RunUsage {
    const models = new Map<string, Sums>();
    const sections: SectionUsage[] = [];
    const ids = [...this.entries.keys()].sort(compareEntryIds);
    for (const id of ids) {
      const sums = this.entries.get(id);
      if (sums === undefined) continue;
      for (const [model, part] of sums.byModel) addSums(sumsIn(models, model), part);
      sections.push({
        entry: sums.entry,
        section: sums.section,
        chain: sums.chain,
        task: sums.task,
        total: frozen(sums.total),
        byModel: recordOf(sums.byModel, byText),
      });
    }
    return {
      total: frozen(this.total),
      byModel: recordOf(models, byText),
      bySection: recordOf(this.sections, byText),
      byTask: recordOf(this.tasks, compareEntryIds),
      sections,
    };
  }
}

const byRun = new WeakMap<RunContext, UsageRecorder>();

/** The run's usage recorder. */
export function usageOf(ctx: RunContext): UsageRecorder {
  let recorder = byRun.get(ctx);
  if (recorder === undefined) {
    recorder = new UsageRecorder();
    byRun.set(ctx, recorder);
  }
  return recorder;
}
