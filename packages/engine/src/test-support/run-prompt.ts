import type { RunResult } from "@runvil/protocol";
import { type Engine, loadEngine } from "../run/engine";
import type { RunOptions } from "../run/run-options";
import { MemoryPort } from "./memory-port";
import { parseForTest } from "./parse";

let engine: Promise<Engine> | undefined;

/** What a test run gives back: the result and the port (events, store). */
export interface TestRun {
  readonly result: RunResult;
  readonly port: MemoryPort;
}

/** Options of a test run: RunOptions without the port, plus the store's starting files. */
export type TestRunOptions = Omit<RunOptions, "effects"> & {
  readonly files?: Readonly<Record<string, string>>;
  readonly port?: MemoryPort;
};

/** Parses `text` and runs it with an in-memory port. */
export async function runTestPrompt(text: string, options: TestRunOptions = {}): Promise<TestRun> {
  engine ??= loadEngine();
  const prompt = await parseForTest(text);
  const { files, port: given, ...rest } = options;
  const port = given ?? new MemoryPort(files);
  const result = await (await engine).run(prompt, { ...rest, effects: port });
  return { result, port };
}

/** The run's result text; throws with the failure when the run did not succeed. */
export function resultText(run: TestRun): string | null {
  if (run.result.outcome !== "succeeded") {
    throw new Error(`the run did not succeed: ${JSON.stringify(run.result)}`);
  }
  return run.result.result;
}
