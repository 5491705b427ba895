import { decodeValue } from "./codec";
import type { RecordedFailure, RecordedRun, RunCounts, RunInputs, RunSummary } from "./records";
import { ownerOf } from "./run-owner";

/** A row of the runs table, as both backends read it (numbers may come as strings from pg). */
export interface RunRow {
  readonly id: string;
  readonly prompt_path: string;
  readonly prompt_hash: string;
  readonly started_at: number | string;
  readonly ended_at: number | string | null;
  readonly outcome: string | null;
  readonly error_kind: string | null;
  readonly effects: number | string;
  readonly model_rounds: number | string;
  readonly tool_calls: number | string;
  readonly input_tokens: number | string;
  readonly output_tokens: number | string;
  readonly events: number | string;
  readonly resumes: number | string;
}

/** The full row, with the inputs. */
export interface FullRunRow extends RunRow {
  readonly prompt: Uint8Array;
  readonly args: string;
  readonly seed: string;
  readonly host: string;
  readonly bindings: string;
  readonly versions: string;
  readonly result: string | null;
  readonly owner: string | null;
}

/** The columns a summary reads. */
export const SUMMARY_COLUMNS =
  "id, prompt_path, prompt_hash, started_at, ended_at, outcome, error_kind, effects, model_rounds, tool_calls, input_tokens, output_tokens, events, resumes";

/** The columns a full read adds. */
export const INPUT_COLUMNS = "prompt, args, seed, host, bindings, versions, result, owner";

/** Counts of a run with no ending, from its recorded effects and events. */
export interface LiveCounts {
  readonly effects: number;
  readonly modelRounds: number;
  readonly toolCalls: number;
  readonly events: number;
}

const OUTCOMES = new Set(["succeeded", "failed", "cancelled"]);

/** A summary from a row; `live` replaces the counts of a run that has no ending. */
export function summaryOf(row: RunRow, live?: LiveCounts): RunSummary {
  const outcome = row.outcome !== null && OUTCOMES.has(row.outcome) ? row.outcome : "running";
  const counts: RunCounts =
    live === undefined
      ? {
          effects: Number(row.effects),
          modelRounds: Number(row.model_rounds),
          toolCalls: Number(row.tool_calls),
          inputTokens: Number(row.input_tokens),
          outputTokens: Number(row.output_tokens),
          events: Number(row.events),
        }
      : { ...live, inputTokens: 0, outputTokens: 0 };
  return {
    id: row.id,
    promptPath: row.prompt_path,
    promptHash: row.prompt_hash,
    startedAt: Number(row.started_at),
    ...(row.ended_at === null ? {} : { endedAt: Number(row.ended_at) }),
    outcome: outcome as RunSummary["outcome"],
    ...(row.error_kind === null ? {} : { errorKind: row.error_kind }),
    ...counts,
    resumes: Number(row.resumes),
  };
}

/** A recorded run from a full row, with the instants of its resumes. */
export function recordedRunOf(
  row: FullRunRow,
  resumedAt: readonly number[],
  live?: LiveCounts,
): RecordedRun {
  const inputs: RunInputs = {
    promptPath: row.prompt_path,
    promptBytes: new Uint8Array(row.prompt),
    args: row.args,
    seed: row.seed,
    startedAt: Number(row.started_at),
    host: decodeValue(row.host),
    bindings: decodeValue(row.bindings) as Record<string, string>,
    versions: decodeValue(row.versions) as Record<string, string>,
  };
  const owner = ownerOf(row.owner);
  return {
    ...summaryOf(row, live),
    inputs,
    ...(row.result === null ? {} : { result: row.result }),
    resumedAt,
    ...(owner === undefined ? {} : { owner }),
  };
}

/** A failure column's value back as a RecordedFailure. */
export function failureOf(text: string | null): RecordedFailure | undefined {
  return text === null ? undefined : (JSON.parse(text) as RecordedFailure);
}
