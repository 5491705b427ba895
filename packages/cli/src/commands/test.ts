import {
  type CaseResult,
  collectScenarioFiles,
  filterCases,
  formatReport,
  loadScenarioFile,
  runScenarioCase,
  type ScenarioFile,
  ScenarioFormatError,
  ScenarioPathError,
  skippedCaseResult,
  toJsonReport,
} from "@runvil/testkit";
import { type ScenarioConfig, ScenarioConfigs } from "../host/scenario-configs";
import type { CliIo } from "../io";
import type { CasePoolOptions } from "../test-pool/case-pool";
import type { CaseJob } from "../test-pool/messages";

/** Options of `runvil test`. */
export interface TestOptions {
  /** Print the machine-readable report instead of text. */
  json: boolean;
  /** Run only the cases whose name or file path contains this text (case-insensitive). */
  filter?: string;
  /** Also list skipped cases. */
  verbose: boolean;
  /** Per-case timeout in milliseconds. */
  timeoutMs: number;
  /**
   * The case threads (with `io.runInWorker`): how many, their script, the grace after a case's
   * timeout before its thread is ended (docs/design/cli.md "runvil test: case threads").
   */
  threads?: Omit<CasePoolOptions, "timeoutMs">;
}

/**
 * The plugins each scenario file's cases add to their Host and the budget they run under (from
 * the runvil.config.json found from the file's directory upward), or the configuration's error
 * message.
 */
async function configPerFile(
  files: readonly ScenarioFile[],
): Promise<Map<string, ScenarioConfig> | string> {
  const configs = new ScenarioConfigs();
  const byFile = new Map<string, ScenarioConfig>();
  for (const file of files) {
    try {
      byFile.set(file.path, await configs.for(file.path));
    } catch (error) {
      return `${file.path}: Host error: ${error instanceof Error ? error.message : String(error)}`;
    }
  }
  return byFile;
}

/**
 * Every case in case threads, both cores used: a case that outlives its timeout, even in a
 * C-level loop, has its thread ended and fails; skipped cases are reported without a thread.
 */
async function runInThreads(
  files: readonly ScenarioFile[],
  options: TestOptions,
): Promise<CaseResult[]> {
  const results: (CaseResult | undefined)[] = [];
  const jobs: CaseJob[] = [];
  const slots: number[] = [];
  for (const file of files) {
    for (const scenarioCase of file.cases) {
      if (scenarioCase.skip !== undefined) {
        results.push(skippedCaseResult(file.path, scenarioCase));
        continue;
      }
      slots.push(results.length);
      results.push(undefined);
      jobs.push({ file: file.path, scenarioCase });
    }
  }
  const { runCasesInThreads } = await import("../test-pool/case-pool");
  const ran = await runCasesInThreads(jobs, { ...options.threads, timeoutMs: options.timeoutMs });
  ran.forEach((result, i) => {
    const slot = slots[i];
    if (slot !== undefined) results[slot] = result;
  });
  return results.filter((result) => result !== undefined);
}

/** Every case in turn in this thread (tests, embedding): a C-level loop holds it. */
async function runInThisThread(
  files: readonly ScenarioFile[],
  options: TestOptions,
  configs: Map<string, ScenarioConfig>,
): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  for (const file of files) {
    for (const scenarioCase of file.cases) {
      results.push(
        await runScenarioCase(file.path, scenarioCase, {
          timeoutMs: options.timeoutMs,
          ...(configs.get(file.path) ?? { plugins: [] }),
        }),
      );
    }
  }
  return results;
}

/**
 * `runvil test FILE|DIR...`: loads every scenario file (a format error in any file, or a bad
 * runvil.config.json, stops before any case runs), runs every case (in case threads with
 * `io.runInWorker`, as the real CLI does), prints the report ending
 * with `N passed, N failed` (`, N skipped`), and resolves to 1 when any case failed.
 */
export async function testCommand(
  paths: readonly string[],
  options: TestOptions,
  io: CliIo,
): Promise<number> {
  let files: ScenarioFile[];
  try {
    files = collectScenarioFiles(paths).map((path) => loadScenarioFile(path));
  } catch (error) {
    if (error instanceof ScenarioFormatError || error instanceof ScenarioPathError) {
      io.stderr(`${error.message}\n`);
      return 1;
    }
    throw error;
  }
  if (options.filter !== undefined) files = filterCases(files, options.filter);
  const configs = await configPerFile(files.filter((file) => file.cases.length > 0));
  if (typeof configs === "string") {
    io.stderr(`${configs}\n`);
    return 1;
  }
  const results = io.runInWorker
    ? await runInThreads(files, options)
    : await runInThisThread(files, options, configs);
  if (options.json) io.stdout(`${JSON.stringify(toJsonReport(results), null, 2)}\n`);
  else {
    const report = formatReport(results, { verbose: options.verbose });
    io.stdout(report.endsWith("\n") ? report : `${report}\n`);
  }
  return results.some((r) => r.status === "failed") ? 1 : 0;
}
