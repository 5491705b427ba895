import { quotaError } from "../lua";
import type { RunContext } from "../run/run-context";

/** The most unfinished tasks (waiting or running) one run may hold (docs/design/tasks.md, Limits). */
export const MAX_UNFINISHED_TASKS_PER_RUN = 100_000;

/** The run-wide guard's refusal, as `tasks.spawn` raises it (quota). */
export function runTasksQuotaMessage(limit: number): string {
  return `tasks.spawn: the run already has ${limit} unfinished tasks`;
}

/**
 * The run-wide task facts no one entry owns: how many tasks are unfinished (the resource guard
 * of tasks.md, Limits: a task counts from its spawn until its chain has torn down, whoever owns
 * it), and each task's latest note (`tasks.note`, read by the model's `task_status`).
 */
export class RunTasks {
  readonly limit: number;
  private unfinishedCount = 0;
  private readonly notes = new Map<string, string>();

  constructor(limit: number = MAX_UNFINISHED_TASKS_PER_RUN) {
    if (!Number.isInteger(limit) || limit < 1) {
      throw new RangeError(`the run's task limit must be a positive whole number, got ${limit}`);
    }
    this.limit = limit;
  }

  /** The tasks spawned and not yet finished. */
  get unfinished(): number {
    return this.unfinishedCount;
  }

  /** Whether one more task would pass the limit. */
  get full(): boolean {
    return this.unfinishedCount >= this.limit;
  }

  /** Counts a task in at its spawn; a quota error when the run is full. */
  admit(): void {
    if (this.full) throw quotaError(runTasksQuotaMessage(this.limit));
    this.unfinishedCount++;
  }

  /** Counts a task out once it has finished. */
  release(): void {
    if (this.unfinishedCount === 0) throw new Error("RunTasks: released more tasks than admitted");
    this.unfinishedCount--;
  }

  /** Records task `task`'s latest note. */
  setNote(task: string, text: string): void {
    this.notes.set(task, text);
  }

  /** Task `task`'s latest note, if it set one. */
  noteOf(task: string): string | undefined {
    return this.notes.get(task);
  }
}

const byRun = new WeakMap<RunContext, RunTasks>();

/** The run's task facts, made on first use. */
export function runTasksOf(ctx: RunContext): RunTasks {
  let tasks = byRun.get(ctx);
  if (tasks === undefined) {
    tasks = new RunTasks();
    byRun.set(ctx, tasks);
  }
  return tasks;
}

/** Gives a run its task facts before it spawns anything (tests use a smaller limit). */
export function setRunTasks(ctx: RunContext, tasks: RunTasks): void {
  if (byRun.has(ctx)) throw new Error("setRunTasks: the run already has its task facts");
  byRun.set(ctx, tasks);
}
