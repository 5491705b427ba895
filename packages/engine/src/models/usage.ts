import type { RunUsage, SectionUsage, TokenUsage } from "@runvil/protocol";
import type { ModelUsage } from "@runvil/sdk";
import type { RunContext } from "../run/run-context";
import type { Entry } from "../walk/entry";

/** Mutable token sums. */
interface Sums {
  rounds: number;
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  reasoningTokens: number;
}

function zero(): Sums {
  return { rounds: 0, inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, reasoningTokens: 0 };
}

function add(sums: Sums, usage: ModelUsage): void {
  sums.rounds += 1;
  sums.inputTokens += usage.inputTokens;
  sums.outputTokens += usage.outputTokens;
  sums.cachedInputTokens += usage.cachedInputTokens ?? 0;
  sums.reasoningTokens += usage.reasoningTokens ?? 0;
}

function frozen(sums: Sums): TokenUsage {
  return { ...sums };
}

function byModelOf(map: ReadonlyMap<string, Sums>): Record<string, TokenUsage> {
  const out: Record<string, TokenUsage> = {};
  for (const model of [...map.keys()].sort()) out[model] = frozen(map.get(model) ?? zero());
  return out;
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
  readonly byModel: Map<string, Sums>;
}

/**
 * Adds up the usage of a run's completed model rounds (docs/design/loop.md §10), per section
 * entry and catalog model; failed requests add nothing.
 */
export class UsageRecorder {
  private readonly entries = new Map<string, EntrySums>();

  /** Adds one completed round of `entry` on `model`. */
  add(entry: Entry, model: string, usage: ModelUsage): void {
    let sums = this.entries.get(entry.id);
    if (sums === undefined) {
      sums = {
        entry: entry.id,
        section: entry.name,
        chain: entry.chain.id,
        task: entry.chain.taskId,
        byModel: new Map(),
      };
      this.entries.set(entry.id, sums);
    }
    let onModel = sums.byModel.get(model);
    if (onModel === undefined) {
      onModel = zero();
      sums.byModel.set(model, onModel);
    }
    add(onModel, usage);
  }

  /** The run's usage as the run result carries it. */
  usage(): RunUsage {
    const total = zero();
    const models = new Map<string, Sums>();
    const sections: SectionUsage[] = [];
    const ids = [...this.entries.keys()].sort(compareEntryIds);
    for (const id of ids) {
      const sums = this.entries.get(id);
      if (sums === undefined) continue;
      for (const [model, part] of sums.byModel) {
        const into = models.get(model) ?? zero();
        models.set(model, into);
        for (const target of [into, total]) {
          target.rounds += part.rounds;
          target.inputTokens += part.inputTokens;
          target.outputTokens += part.outputTokens;
          target.cachedInputTokens += part.cachedInputTokens;
          target.reasoningTokens += part.reasoningTokens;
        }
      }
      sections.push({
        entry: sums.entry,
        section: sums.section,
        chain: sums.chain,
        task: sums.task,
        byModel: byModelOf(sums.byModel),
      });
    }
    return { total: frozen(total), byModel: byModelOf(models), sections };
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
