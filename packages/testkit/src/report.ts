import type { Mismatch } from "./expectations";
import { displayValue } from "./json-data";
import { type DiffLine, renderLineDiff } from "./line-diff";
import type { ScenarioCase } from "./scenario-types";

/** How a case ended under `runvil test`. */
export type CaseStatus = "passed" | "failed" | "skipped";

/** The result of one case, as the reporter takes it. */
export interface CaseResult {
  /** The scenario file, as collected. */
  file: string;
  /** Zero-based index of the case in the file. */
  caseIndex: number;
  /** The case name. */
  caseName: string;
  /** 1-based line of the case in the file. */
  line?: number;
  status: CaseStatus;
  /** The expectations that did not hold (empty unless failed). */
  mismatches: Mismatch[];
  /** Why a skipped case was skipped (its `skip` text). */
  skipReason?: string;
  /**
   * Why a failed case could not be run to the end or checked: a scripted reply or answer that
   * ran out, a runner crash... It fails the case on its own.
   */
  failure?: string;
}

/** Options of {@link formatReport}. */
export interface ReportOptions {
  /** Also print one line per skipped case. */
  verbose?: boolean;
  /** Unchanged lines around each change in a diff (default 3). */
  diffContext?: number;
}

/** The result of a case given by its `skip` key. */
export function skippedCaseResult(file: string, scenarioCase: ScenarioCase): CaseResult {
  const result = baseResult(file, scenarioCase, "skipped", []);
  if (scenarioCase.skip !== undefined) result.skipReason = scenarioCase.skip;
  return result;
}

/** The result of a case that ran: failed when there is a mismatch or a failure, else passed. */
export function checkedCaseResult(
  file: string,
  scenarioCase: ScenarioCase,
  mismatches: Mismatch[],
  failure?: string,
): CaseResult {
  const failed = mismatches.length > 0 || failure !== undefined;
  const result = baseResult(file, scenarioCase, failed ? "failed" : "passed", mismatches);
  if (failure !== undefined) result.failure = failure;
  return result;
}

function baseResult(
  file: string,
  scenarioCase: ScenarioCase,
  status: CaseStatus,
  mismatches: Mismatch[],
): CaseResult {
  return {
    file,
    caseIndex: scenarioCase.index,
    caseName: scenarioCase.name,
    line: scenarioCase.line,
    status,
    mismatches,
  };
}

/** The passed, failed and skipped counts of a run. */
export function countResults(results: readonly CaseResult[]): {
  passed: number;
  failed: number;
  skipped: number;
} {
  const counts = { passed: 0, failed: 0, skipped: 0 };
  for (const result of results) counts[result.status]++;
  return counts;
}

/** The closing line: `N passed, N failed`, plus `, N skipped` when any case was skipped. */
export function summaryLine(results: readonly CaseResult[]): string {
  const { passed, failed, skipped } = countResults(results);
  return `${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ""}`;
}

/**
 * The text report of `runvil test`: one block per failing case (file:line and name, then each
 * mismatch with its expected and actual values or its line diff), one line per skipped case
 * when `verbose`, and the closing {@link summaryLine}. Blocks are separated by blank lines.
 */
export function formatReport(results: readonly CaseResult[], options: ReportOptions = {}): string {
  const blocks: string[] = [];
  for (const result of results) {
    const where = result.line === undefined ? result.file : `${result.file}:${result.line}`;
    if (result.status === "skipped" && options.verbose === true) {
      const reason = result.skipReason === undefined ? "" : ` (${result.skipReason})`;
      blocks.push(`SKIP ${where}: ${result.caseName}${reason}`);
    } else if (result.status === "failed") {
      blocks.push(
        [`FAIL ${where}: ${result.caseName}`, ...failureLines(result, options)].join("\n"),
      );
    }
  }
  blocks.push(summaryLine(results));
  return blocks.join("\n\n");
}

function failureLines(result: CaseResult, options: ReportOptions): string[] {
  const lines: string[] = [];
  if (result.failure !== undefined) {
    const [first = "", ...rest] = result.failure.split("\n");
    lines.push(`  run: ${first}`, ...rest.map((line) => `    ${line}`));
  }
  for (const mismatch of result.mismatches) {
    lines.push(`  ${mismatch.path}: ${mismatch.message}`);
    if (mismatch.diff !== undefined) {
      lines.push("    (- expected, + actual)");
      for (const line of renderDiff(mismatch.diff, options)) lines.push(`    ${line}`);
    } else {
      lines.push(`    expected: ${displayValue(mismatch.expected)}`);
      lines.push(`    actual:   ${displayValue(mismatch.actual)}`);
    }
  }
  return lines;
}

function renderDiff(diff: readonly DiffLine[], options: ReportOptions): string[] {
  return options.diffContext === undefined
    ? renderLineDiff(diff)
    : renderLineDiff(diff, { context: options.diffContext });
}

/** One mismatch in a {@link JsonReport}. */
export interface JsonMismatch {
  path: string;
  message: string;
  /** Absent when nothing was expected there. */
  expected?: unknown;
  /** Absent when the run produced nothing there. */
  actual?: unknown;
  diff?: DiffLine[];
}

/** One case in a {@link JsonReport}. */
export interface JsonCaseReport {
  file: string;
  index: number;
  name: string;
  line?: number;
  status: CaseStatus;
  skipReason?: string;
  failure?: string;
  mismatches: JsonMismatch[];
}

/** The machine-readable report of `runvil test --json`. */
export interface JsonReport {
  passed: number;
  failed: number;
  skipped: number;
  /** Every case, passed ones included, in run order. */
  cases: JsonCaseReport[];
}

/** Builds the `--json` report (serialize it with JSON.stringify). */
export function toJsonReport(results: readonly CaseResult[]): JsonReport {
  return {
    ...countResults(results),
    cases: results.map((result) => {
      const entry: JsonCaseReport = {
        file: result.file,
        index: result.caseIndex,
        name: result.caseName,
        status: result.status,
        mismatches: result.mismatches.map(toJsonMismatch),
      };
      if (result.line !== undefined) entry.line = result.line;
      if (result.skipReason !== undefined) entry.skipReason = result.skipReason;
      if (result.failure !== undefined) entry.failure = result.failure;
      return entry;
    }),
  };
}

function toJsonMismatch(mismatch: Mismatch): JsonMismatch {
  const out: JsonMismatch = { path: mismatch.path, message: mismatch.message };
  if (mismatch.expected !== undefined) out.expected = mismatch.expected;
  if (mismatch.actual !== undefined) out.actual = mismatch.actual;
  if (mismatch.diff !== undefined) out.diff = mismatch.diff;
  return out;
}
