import type { RunSummary } from "@runvil/journal";
import type { RunListRow } from "./view-types";

/** A run summary as the run list shows it. */
export function runListRow(run: RunSummary): RunListRow {
  return {
    id: run.id,
    prompt: run.promptPath,
    startedAt: new Date(run.startedAt).toISOString(),
    durationMs: run.endedAt === undefined ? null : run.endedAt - run.startedAt,
    outcome: run.outcome,
    errorKind: run.errorKind ?? null,
    resumes: run.resumes,
    modelRounds: run.modelRounds,
    toolCalls: run.toolCalls,
    tokens: run.inputTokens + run.outputTokens,
    effects: run.effects,
    events: run.events,
  };
}
