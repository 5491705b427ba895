import type { RunError } from "@runvil/protocol";
import { EngineError, type ErrorKind, isErrorKind, type LuaJsonObject, quotaError } from "../lua";
import { type ScopeEnd, ScopeEnded } from "../scope/scope";
import type { Chain } from "../walk/chain";
import type { ChainRunner } from "../walk/chain-runner";
import type { Entry } from "../walk/entry";
import { runTasksOf } from "./run-tasks";
import {
  consumedMessage,
  DEFAULT_TASK_CONCURRENCY,
  LIVE_TASKS_QUOTA_MESSAGE,
  MAX_LIVE_TASKS_PER_ENTRY,
  MAX_TASK_CONCURRENCY,
  notOwnedMessage,
  taskCancelledMessage,
  tasksLiveMessage,
} from "./task-messages";

/** How a task ended, once it has. */
export type TaskOutcome =
  | { readonly ok: true; readonly result: string | null }
  | { readonly ok: false; readonly error: RunError; readonly cancelled: boolean };

/** One join result entry: `{ task, ok, result }` (result: text, nil, or an error value). */
export interface TaskResultEntry {
  readonly task: string;
  readonly ok: boolean;
  readonly result: string | EngineError | undefined;
}

/** What a spawn asks for. */
export interface SpawnRequest {
  readonly section: number;
  readonly target: string;
  readonly container: number | null;
  readonly itemJson: string;
  readonly index: number | undefined;
  readonly startVar: LuaJsonObject;
  /** Who started it (the `task_started` event's `by`); `script` when absent. */
  readonly by?: "script" | "model";
}

/** A task's state as the model's `task_status` reads it (docs/design/task-builtins.md). */
export type TaskState = "waiting" | "running" | "succeeded" | "failed" | "cancelled" | "awaited";

interface TaskRecord {
  readonly id: string;
  readonly chain: Chain;
  readonly request: SpawnRequest;
  state: "waiting" | "running" | "finished";
  outcome: TaskOutcome | undefined;
  /** Set by tasks.cancel: the outcome reads `cancelled` whatever the chain did. */
  cancelled: boolean;
  /** The result was taken (join, join_any, the end-of-entry wait). */
  consumed: boolean;
  readonly finished: Promise<void>;
  resolveFinished: () => void;
}

/**
 * The tasks one section entry owns (docs/design/tasks.md): it starts them in id order as slots
 * free up under the entry's concurrency limit, hands their outcomes to joins, cancels them, and
 * at the entry's end waits for the ones still live.
 */
export class TaskSet {
  private readonly entry: Entry;
  private readonly runChain: ChainRunner;
  private readonly records = new Map<string, TaskRecord>();
  /** The tasks neither joined nor cancelled, in spawn order (so a spawn scans nothing). */
  private readonly liveRecords = new Set<TaskRecord>();
  /** Fanout arms (docs/design/fanout.md): tasks with no handle, taken by their fanout. */
  private readonly arms = new Map<string, TaskRecord>();
  /** Tasks waiting for a slot, in id order, from `queueHead` on (cancelled ones are skipped). */
  private queue: TaskRecord[] = [];
  private queueHead = 0;
  private running = 0;
  private limitValue = DEFAULT_TASK_CONCURRENCY;

  constructor(entry: Entry, runChain: ChainRunner) {
    this.entry = entry;
    this.runChain = runChain;
  }

  /** The concurrency limit in force. */
  get limit(): number {
    return this.limitValue;
  }

  /** The ids of the live tasks (not joined, not cancelled), in id order. */
  liveIds(): string[] {
    return this.live().map((r) => r.id);
  }

  /** Whether any task was ever spawned by this entry. */
  get isEmpty(): boolean {
    return this.records.size === 0;
  }

  /**
   * Sets the limit (clamped to 256) and returns the limit in force; `tasks_live` while the
   * entry has live tasks.
   */
  setLimit(n: number): number {
    const live = this.liveIds();
    if (live.length > 0) {
      throw new EngineError("tasks_live", tasksLiveMessage(live), { tasks: live.join(",") });
    }
    this.limitValue = Math.min(n, MAX_TASK_CONCURRENCY);
    return this.limitValue;
  }

  /** Starts a task (or queues it): its id is taken now, from the entry's chain. */
  spawn(request: SpawnRequest): string {
    if (this.liveRecords.size >= MAX_LIVE_TASKS_PER_ENTRY)
      throw quotaError(LIVE_TASKS_QUOTA_MESSAGE);
    runTasksOf(this.entry.ctx).admit();
    const chain = this.entry.chain.openTaskChain(
      request.container,
      request.itemJson,
      request.index,
    );
    let resolveFinished = (): void => undefined;
    const finished = new Promise<void>((resolve) => {
      resolveFinished = resolve;
    });
    const record: TaskRecord = {
      id: chain.id,
      chain,
      request,
      state: "waiting",
      outcome: undefined,
      cancelled: false,
      consumed: false,
      finished,
      resolveFinished,
    };
    this.records.set(record.id, record);
    this.liveRecords.add(record);
    const { ctx } = this.entry;
    ctx.claims.tasks.spawned(this.entry.chain.taskId, record.id); // determinism.md
    ctx.emit(this.entry.source, "task_started", {
      task: record.id,
      target: request.target,
      by: request.by ?? "script",
      ...(request.index === undefined ? {} : { index: request.index }),
    });
    this.queue.push(record);
    this.pump();
    return record.id;
  }

  /** The state of task `id` of this entry, or undefined when the entry started no such task. */
  stateOf(id: string): TaskState | undefined {
    const record = this.records.get(id);
    if (record === undefined) return undefined;
    if (record.consumed) return "awaited";
    if (record.cancelled) return "cancelled";
    if (record.state !== "finished") return record.state;
    return record.outcome?.ok === true ? "succeeded" : "failed";
  }

  /**
   * The outcome a joiner of task `id` sees (`cancelled` once it was cancelled), or undefined
   * while it has not finished.
   */
  outcomeOf(id: string): TaskOutcome | undefined {
    const record = this.records.get(id);
    if (record === undefined || record.state !== "finished") return undefined;
    return record.cancelled ? this.cancelledOutcome(record) : record.outcome;
  }

  /**
   * Checks the handles of a join, join_any or cancel: each must name a task of this entry
   * (`task_not_owned`) whose result was not taken (`task_consumed`).
   */
  check(fn: string, ids: readonly string[]): void {
    for (const id of ids) {
      const record = this.records.get(id);
      if (record === undefined) {
        throw new EngineError("task_not_owned", notOwnedMessage(fn, id), { task: id });
      }
      if (record.consumed) {
        throw new EngineError("task_consumed", consumedMessage(fn, id), { task: id });
      }
    }
  }

  /** Waits for every listed task and takes their results, in the order of `ids`. */
  async join(ids: readonly string[]): Promise<TaskResultEntry[]> {
    this.check("tasks.join", ids);
    const records = ids.map((id) => this.record(id));
    for (const r of records) this.take(r);
    await Promise.all(records.map((r) => r.finished));
    if (records.length > 0) this.emitJoined(ids);
    return records.map((r) => this.entryOf(r));
  }

  /**
   * Waits until one listed task has finished and takes that one only (the first finished in
   * list order when several have): its entry and its 1-based position.
   */
  async joinAny(ids: readonly string[]): Promise<[TaskResultEntry, number]> {
    this.check("tasks.join_any", ids);
    const records = ids.map((id) => this.record(id));
    // The choice observes timing: it takes an effect id and is recorded (determinism.md, Replay).
    // The id is taken now (the owner runs nothing else until join_any returns), so a replaying
    // port can name the task the recorded run took, and the Engine waits for that one.
    const effect = this.entry.nextEffectId();
    const recalled = this.entry.ctx.options.effects.recall?.({
      via: "join_any",
      effect,
      origin: this.entry.origin,
    });
    let position = recalled === undefined ? -1 : ids.indexOf(recalled);
    if (position >= 0) {
      await records[position]?.finished;
    } else {
      const first = (): number => records.findIndex((r) => r.state === "finished");
      if (first() < 0) await Promise.race(records.map((r) => r.finished));
      position = first();
    }
    const record = records[position];
    if (record === undefined) throw new Error("join_any resumed with no finished task");
    this.take(record);
    this.emitJoined([record.id]);
    this.entry.ctx.emit(this.entry.source, "task_observed", {
      via: "join_any",
      answer: record.id,
      effect,
    });
    return [this.entryOf(record), position + 1];
  }

  /**
   * Cancels each listed task (a cancelled or finished one included: its outcome becomes
   * `cancelled`), and resolves once every cancelled chain has torn down.
   */
  async cancel(ids: readonly string[]): Promise<void> {
    this.check("tasks.cancel", ids);
    const fresh = ids.map((id) => this.record(id)).filter((r) => !r.cancelled);
    if (fresh.length === 0) return;
    for (const record of fresh) this.cancelRecord(record);
    this.entry.ctx.emit(this.entry.source, "task_cancelled", { tasks: fresh.map((r) => r.id) });
    await Promise.all(fresh.map((r) => r.finished));
    this.entry.ctx.claims.tasks.joined(
      this.entry.chain.taskId,
      fresh.map((r) => r.id),
    );
  }

  /**
   * The end of an entry that did not fail: waits for its live tasks in id order and drops their
   * results. The first that failed (lowest id) becomes the entry's failure; the live tasks after
   * it are cancelled.
   */
  async settle(): Promise<ScopeEnd | undefined> {
    const live = this.live();
    if (live.length === 0) return undefined;
    for (const r of live) this.take(r);
    this.emitJoined(live.map((r) => r.id));
    for (let i = 0; i < live.length; i++) {
      const record = live[i] as TaskRecord;
      await record.finished;
      const outcome = record.outcome;
      if (outcome !== undefined && !outcome.ok && !record.cancelled) {
        const rest = live.slice(i + 1);
        for (const r of rest) this.cancelRecord(r);
        await Promise.all(rest.map((r) => r.finished));
        return { kind: "failed", error: outcome.error };
      }
    }
    return undefined;
  }

  /**
   * Waits until every task this entry started has torn down (after the entry's scope ended, so
   * nothing it started outlives it). A waiting task never starts.
   */
  async drain(): Promise<void> {
    const waiting = this.queue.slice(this.queueHead);
    this.queue = [];
    this.queueHead = 0;
    for (const record of waiting) this.finishUnstarted(record);
    const all = [...this.records.values(), ...this.arms.values()];
    await Promise.all(all.map((r) => r.finished));
    // Torn down before the entry's failure goes on: their accesses precede what follows it.
    this.entry.ctx.claims.tasks.joined(
      this.entry.chain.taskId,
      all.map((r) => r.id),
    );
  }

  /** The live tasks in id order (the set keeps spawn order, which is id order). */
  private live(): TaskRecord[] {
    return [...this.liveRecords];
  }

  /** Takes a task's result: it is no longer live. */
  private take(record: TaskRecord): void {
    record.consumed = true;
    this.liveRecords.delete(record);
  }

  private record(id: string): TaskRecord {
    const record = this.records.get(id);
    if (record === undefined) throw new Error(`no task ${id}`);
    return record;
  }

  private emitJoined(ids: readonly string[]): void {
    this.entry.ctx.emit(this.entry.source, "task_joined", { tasks: [...ids] });
    this.entry.ctx.claims.tasks.joined(this.entry.chain.taskId, ids); // determinism.md
  }

  /**
   * Dispatches one fanout arm (docs/design/fanout.md): a task with no handle, so join,
   * join_any and cancel do not know it (`task_not_owned`), queued in id order under the same
   * limit as the entry's spawned tasks. `finished` resolves with its outcome once it has torn
   * down; its fanout takes it ({@link takeArms}).
   */
  startArm(request: SpawnRequest): {
    readonly id: string;
    readonly finished: Promise<TaskOutcome>;
  } {
    // Its fanout checked the run-wide guard for every arm before dispatching the first.
    runTasksOf(this.entry.ctx).admitArm();
    const chain = this.entry.chain.openTaskChain(
      request.container,
      request.itemJson,
      request.index,
    );
    let resolveFinished = (): void => undefined;
    const finished = new Promise<void>((resolve) => {
      resolveFinished = resolve;
    });
    const record: TaskRecord = {
      id: chain.id,
      chain,
      request,
      state: "waiting",
      outcome: undefined,
      cancelled: false,
      consumed: true,
      finished,
      resolveFinished,
    };
    this.arms.set(record.id, record);
    const { ctx } = this.entry;
    ctx.claims.tasks.spawned(this.entry.chain.taskId, record.id);
    ctx.emit(this.entry.source, "task_started", {
      task: record.id,
      target: request.target,
      by: "fanout",
      ...(request.index === undefined ? {} : { index: request.index }),
    });
    this.queue.push(record);
    this.pump();
    return {
      id: record.id,
      finished: finished.then(() => record.outcome ?? this.cancelledOutcome(record)),
    };
  }

  /** Cancels a fanout arm that has not finished (a waiting one never starts). */
  cancelArm(id: string): void {
    const record = this.arms.get(id);
    if (record !== undefined && record.state !== "finished") this.cancelRecord(record);
  }

  /** A fanout's return takes its arms' results: `task_joined`, and the arms are forgotten. */
  takeArms(ids: readonly string[]): void {
    if (ids.length === 0) return;
    this.emitJoined(ids);
    for (const id of ids) this.arms.delete(id);
  }

  private cancelRecord(record: TaskRecord): void {
    record.cancelled = true;
    this.liveRecords.delete(record);
    if (record.state === "waiting") {
      // It stays in the queue, finished: pump skips it.
      this.finishUnstarted(record);
    } else if (record.state === "running") {
      record.chain.scope.end({ kind: "cancelled" });
    }
  }

  /** A task that never started: its scope closes, its outcome is `cancelled`. */
  private finishUnstarted(record: TaskRecord): void {
    if (record.state !== "waiting") return;
    record.cancelled = true;
    this.liveRecords.delete(record);
    this.finish(record, this.cancelledOutcome(record));
  }

  private cancelledOutcome(record: TaskRecord): TaskOutcome {
    const message = taskCancelledMessage(record.id);
    return {
      ok: false,
      cancelled: true,
      error: {
        kind: "Lua",
        message,
        causes: [],
        value: { kind: "cancelled", fields: { task: record.id } },
      },
    };
  }

  /** Starts waiting tasks in id order while the limit has room. */
  private pump(): void {
    while (this.running < this.limitValue) {
      const record = this.nextQueued();
      if (record === undefined) return;
      this.start(record);
    }
  }

  /** The first queued task still waiting, taken off the queue (no shift: queues can be long). */
  private nextQueued(): TaskRecord | undefined {
    const queue = this.queue;
    while (this.queueHead < queue.length) {
      const record = queue[this.queueHead++] as TaskRecord;
      if (record.state !== "waiting") continue;
      if (this.queueHead >= 1024 && this.queueHead * 2 >= queue.length) {
        this.queue = queue.slice(this.queueHead);
        this.queueHead = 0;
      }
      return record;
    }
    this.queue = [];
    this.queueHead = 0;
    return undefined;
  }

  private start(record: TaskRecord): void {
    record.state = "running";
    this.running++;
    const { section, startVar } = record.request;
    // The task runs after the spawning block has suspended (spawn is a suspending call).
    const run = Promise.resolve().then(() =>
      this.runChain(record.chain, section, "task", startVar, this.entry.args),
    );
    run.then(
      (end) => this.finishRun(record, { ok: true, result: end.result }),
      (error: unknown) => this.finishRun(record, this.failureOutcome(record, error)),
    );
  }

  private failureOutcome(record: TaskRecord, error: unknown): TaskOutcome {
    const ending = record.chain.scope.ending;
    if (error instanceof ScopeEnded && error.scope === record.chain.scope) {
      if (ending?.kind === "failed") return { ok: false, error: ending.error, cancelled: false };
      return this.cancelledOutcome(record);
    }
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, cancelled: false, error: { kind: "Lua", message, causes: [] } };
  }

  private finishRun(record: TaskRecord, outcome: TaskOutcome): void {
    this.running--;
    this.finish(record, outcome);
    this.pump();
  }

  private finish(record: TaskRecord, outcome: TaskOutcome): void {
    record.state = "finished";
    record.outcome = outcome;
    runTasksOf(this.entry.ctx).release();
    record.chain.scope.close();
    const target = this.entry.ctx.prompt.sections[record.request.section]?.name ?? "";
    this.entry.ctx.emit({ chain: record.id, entry: null, section: target }, "task_finished", {
      task: record.id,
      outcome: outcome.ok ? "succeeded" : outcome.cancelled ? "cancelled" : "failed",
      ...(outcome.ok || outcome.cancelled ? {} : { error_kind: outcome.error.kind }),
    });
    record.resolveFinished();
  }

  private entryOf(record: TaskRecord): TaskResultEntry {
    const outcome =
      record.cancelled || record.outcome === undefined
        ? this.cancelledOutcome(record)
        : record.outcome;
    if (outcome.ok) {
      return { task: record.id, ok: true, result: outcome.result ?? undefined };
    }
    return { task: record.id, ok: false, result: errorValueOf(outcome.error) };
  }
}

/** A task's failure as the error value a join entry holds: its kind and fields kept. */
export function errorValueOf(error: RunError): EngineError {
  const kind: ErrorKind =
    error.value !== undefined && isErrorKind(error.value.kind) ? error.value.kind : "lua";
  const headline = error.message.split("\n")[0] ?? error.message;
  return new EngineError(kind, headline, error.value?.fields ?? {});
}
