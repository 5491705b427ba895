import { quotaError } from "../lua";
import type { RunContext } from "../run/run-context";

/** The most unfinished tasks (waiting or running) one run may hold (docs/design/tasks.md, Limits). */
export const MAX_UNFINISHED_TASKS_PER_RUN = 100_000;

/** The run-wide guard's refusal, as `tasks.spawn` raises it (quota). */
export function runTasksQuotaMessage(limit: number): string {
  return `tasks.spawn: the run already has ${limit} unfinished tasks`;
}

/** The guard's refusal of a fanout whose arms would pass the limit (quota). */
export function runArmsQuotaMessage(arms: number, limit: number): string {
  return `tasks.fanout: ${arms} arms would pass the run's limit of ${limit} unfinished tasks`;
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

  /**
   * Checks that a fanout's `arms` fit under the limit together (a quota error when they do not),
   * before any of them is dispatched, so a fanout never starts only some of its arms.
   */
  checkArms(arms: number): void {
    if (this.unfinishedCount + arms > this.limit) {
      throw quotaError(runArmsQuotaMessage(arms, this.limit));
    }
  }

  /** Counts in a fanout arm that {@link checkArms} made room for. */
  admitArm(): void {
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
