import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { type CaseResult, checkedCaseResult } from "@runvil/testkit";
import type { CaseJob, FromCaseThread, ToCaseThread } from "./messages";

/**
 * How long past its timeout a case may take to report before its thread is ended (2 s): the
 * case's own timeout, in its thread, normally ends it first, with the same failure text.
 */
export const CASE_GRACE_MS = 2000;

/** How long a fresh case thread may take to load the Engine and the parser (60 s). */
export const THREAD_START_TIMEOUT_MS = 60_000;

/** Options of {@link runCasesInThreads}. */
export interface CasePoolOptions {
  /** The per-case timeout (`--timeout`). */
  readonly timeoutMs: number;
  /** How many case threads at most (default: the machine's available parallelism). */
  readonly threads?: number;
  /** The grace after the timeout before a thread is ended (default {@link CASE_GRACE_MS}). */
  readonly graceMs?: number;
  /** The case thread's script (default: test-worker.js beside this module, i.e. dist/). */
  readonly workerUrl?: URL;
}

/** The failure of a case whose thread was ended because the case outlived its timeout. */
export function caseThreadEndedFailure(timeoutMs: number): string {
  return `the run did not finish within ${timeoutMs} ms (its thread was ended)`;
}

/** One case thread and the job it runs. */
interface Lane {
  worker: Worker;
  job?: { id: number; timer?: NodeJS.Timeout };
}

/**
 * Runs every job in case threads (docs/design/cli.md "runvil test: case threads"), at most
 * `threads` at once, and resolves with their results in the jobs' order. A case that has not
 * reported `timeoutMs + graceMs` after it started (a C-level loop, a tool that holds the
 * thread) fails with {@link caseThreadEndedFailure}; its thread is ended and a fresh one takes
 * the next case, so every other case still runs. Never rejects: a thread that fails fails the
 * case it ran.
 */
export function runCasesInThreads(
  jobs: readonly CaseJob[],
  options: CasePoolOptions,
): Promise<CaseResult[]> {
  const results: (CaseResult | undefined)[] = jobs.map(() => undefined);
  const graceMs = options.graceMs ?? CASE_GRACE_MS;
  const laneCount = Math.max(1, Math.min(options.threads ?? availableParallelism(), jobs.length));
  const workerUrl = options.workerUrl ?? new URL("./test-worker.js", import.meta.url);
  let next = 0;
  let finished = 0;

  return new Promise((resolve) => {
    if (jobs.length === 0) {
      resolve([]);
      return;
    }
    const record = (id: number, result: CaseResult): void => {
      if (results[id] !== undefined) return;
      results[id] = result;
      finished += 1;
      if (finished === jobs.length) resolve(results as CaseResult[]);
    };
    const failJob = (id: number, failure: string): void => {
      const job = jobs[id];
      if (job !== undefined) record(id, checkedCaseResult(job.file, job.scenarioCase, [], failure));
    };

    const give = (lane: Lane): void => {
      const id = next;
      const job = jobs[id];
      if (job === undefined) {
        lane.worker.removeAllListeners();
        void lane.worker.terminate();
        return;
      }
      next += 1;
      lane.job = { id };
      const message: ToCaseThread = { type: "run", id, job, timeoutMs: options.timeoutMs };
      lane.worker.postMessage(message);
    };

    const open = (): void => {
      const worker = new Worker(workerUrl);
      const lane: Lane = { worker };
      // A thread that never gets ready fails the case it would have run.
      let startTimer: NodeJS.Timeout | undefined = setTimeout(() => {
        startTimer = undefined;
        replace(lane, "the case thread did not start");
      }, THREAD_START_TIMEOUT_MS);
      worker.on("message", (message: FromCaseThread) => {
        if (message.type === "ready") {
          if (startTimer !== undefined) clearTimeout(startTimer);
          startTimer = undefined;
          give(lane);
        } else if (message.type === "started") {
          const current = lane.job;
          if (current === undefined || current.id !== message.id) return;
          current.timer = setTimeout(
            () => replace(lane, caseThreadEndedFailure(options.timeoutMs)),
            options.timeoutMs + graceMs,
          );
        } else {
          const current = lane.job;
          if (current?.timer !== undefined) clearTimeout(current.timer);
          lane.job = undefined;
          record(message.id, message.result);
          give(lane);
        }
      });
      const lost = (why: string): void => {
        if (startTimer !== undefined) clearTimeout(startTimer);
        startTimer = undefined;
        replace(lane, why);
      };
      worker.on("error", (error) => lost(`the case thread failed: ${error.message}`));
      worker.on("exit", (code) => lost(`the case thread exited (code ${code}) during the case`));
    };

    /** Fails the lane's case (if any) with `failure`, ends its thread, opens a fresh one. */
    const replace = (lane: Lane, failure: string): void => {
      const current = lane.job;
      lane.job = undefined;
      lane.worker.removeAllListeners();
      void lane.worker.terminate();
      if (current === undefined) {
        // Lost before its first case: the case it would have run fails, so that a thread
        // that cannot start never loops.
        if (next < jobs.length) {
          failJob(next, failure);
          next += 1;
        }
      } else {
        if (current.timer !== undefined) clearTimeout(current.timer);
        failJob(current.id, failure);
      }
      if (next < jobs.length) open();
    };

    for (let i = 0; i < laneCount; i++) open();
  });
}
