import type { ModelTool } from "@runvil/sdk";
import { reportCompactionFailed, reportCompactionSucceeded } from "../compact/compaction-events";
import { compactorRecords } from "../compact/compactor-result";
import { estimateRequest } from "../models/estimate";
import type { Entry } from "../walk/entry";
import type { Compacting } from "./loop-run";

/**
 * One `models.compact(compactor)` call once its checks passed (compactors.md
 * "`models.compact(compactor)`"): the compactor's well-formed result replaces the list, with no
 * shrink check (the author asked). It holds the chain's loop lock while the compactor runs.
 */
export class CompactRun implements Compacting {
  readonly entry: Entry;
  readonly fn = "models.compact" as const;
  private readonly turn: number;
  private readonly system: string | undefined;
  private readonly tools: readonly ModelTool[];

  constructor(entry: Entry, turn: number, system: string | undefined, tools: readonly ModelTool[]) {
    this.entry = entry;
    this.turn = turn;
    this.system = system;
    this.tools = tools;
  }

  compacted(): void {
    const { entry } = this;
    let records: ReturnType<typeof compactorRecords>;
    try {
      records = compactorRecords(this.fn, entry.messages.takeStaged());
      entry.messages.replace(records);
    } catch (error) {
      this.compactFailed(error instanceof Error ? error.message : String(error));
      throw error;
    }
    const estimate = estimateRequest({ system: this.system, records, tools: this.tools });
    reportCompactionSucceeded(entry, this.turn, records.length, estimate);
  }

  compactFailed(message: string): void {
    reportCompactionFailed(this.entry, this.turn, message);
  }
}
