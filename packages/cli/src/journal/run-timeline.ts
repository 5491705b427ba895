import type { EffectRecord, EventRecord, RecordedRun, RunSummary } from "@runvil/journal";
import { countToolCalls, decodeValue, ownerState, type ToolCallCounts } from "@runvil/journal";

/** One effect in a run's timeline. */
export interface TimelineEffect {
  readonly effect: string;
  readonly kind: EffectRecord["kind"];
  /** What it did, in a few words (`store write notes.md`, `tool web/fetch`, `model round 1 …`). */
  readonly what: string;
  readonly durationMs: number;
  /** Model rounds: the tokens. */
  readonly usage?: { readonly inputTokens: number; readonly outputTokens: number };
  /** The failure's message, when it failed. */
  readonly failed?: string;
}

/**
 * A model round or a tool call the events show started and not ended, in a run with no ending:
 * it is in progress (or the run was killed during it).
 */
export interface TimelineOpenCall {
  readonly kind: "model" | "tool";
  /** What it is, as an effect's `what` (`model round 2 (loop) on triager = local:qwen3`). */
  readonly what: string;
  /** The `seq` of the event that started it. */
  readonly seq: number;
}

/** One section entry and its effects. */
export interface TimelineEntry {
  readonly entry: string;
  readonly section: string;
  readonly chain: string;
  /** How it was entered (`h1`, `walk`, `jump`, `call`, …). */
  readonly via: string;
  readonly effects: readonly TimelineEffect[];
  /** Its model rounds and tool calls still in progress (only while the run has no ending). */
  readonly inProgress: readonly TimelineOpenCall[];
}

/** A run's timeline: its entries in the order they began, and how it ended. */
export interface RunTimeline {
  readonly entries: readonly TimelineEntry[];
  /** Its tool calls by kind, from its `tool_call_started` events (journal.md). */
  readonly toolCalls: ToolCallCounts;
  /** The result text, the error, or the outcome; null while the run has no ending. */
  readonly ending: string | null;
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function text(value: unknown): string {
  if (typeof value === "string") return value;
  if (value instanceof Uint8Array) return new TextDecoder().decode(value);
  return "";
}

function describe(effect: EffectRecord): Pick<TimelineEffect, "what" | "usage"> {
  const request = record(decodeValue(effect.request));
  if (effect.kind === "store") {
    const target = text(request.path ?? request.pattern ?? request.prefix);
    return { what: `store ${text(request.op)}${target === "" ? "" : ` ${target}`}` };
  }
  if (effect.kind === "tool")
    return { what: `tool ${text(request.tool)} (${text(request.caller)})` };
  const what = `model round ${String(request.turn)} (${text(request.via)}) on ${text(request.role)} = ${text(request.model)}`;
  if (effect.output === undefined) return { what };
  const usage = record(record(decodeValue(effect.output)).usage);
  return {
    what,
    usage: {
      inputTokens: Number(usage.inputTokens ?? 0),
      outputTokens: Number(usage.outputTokens ?? 0),
    },
  };
}

function endingOf(run: RecordedRun): string | null {
  if (run.result === undefined) return null;
  const result = record(decodeValue(run.result));
  if (result.outcome === "succeeded") {
    return result.result === null ? "succeeded (no result)" : `result: ${text(result.result)}`;
  }
  if (result.outcome === "failed") {
    const error = record(result.error);
    return `${text(error.kind)} error: ${text(error.message)}`;
  }
  return result.stopped === true ? "stopped" : "cancelled";
}

type EntryDraft = {
  entry: string;
  section: string;
  chain: string;
  via: string;
  effects: TimelineEffect[];
  inProgress: TimelineOpenCall[];
};

/** The model rounds and tool calls the events started and never ended, by entry. */
function openCalls(events: readonly EventRecord[]): Map<string, TimelineOpenCall[]> {
  const open = new Map<string, Map<string, TimelineOpenCall>>();
  for (const event of events) {
    const started = event.type === "model_turn_started" || event.type === "tool_call_started";
    const ended =
      event.type === "model_turn_completed" ||
      event.type === "model_turn_failed" ||
      event.type === "tool_call_succeeded" ||
      event.type === "tool_call_failed";
    if (!started && !ended) continue;
    const fields = record(JSON.parse(event.line));
    const entry = text(fields.entry);
    const model = event.type.startsWith("model_");
    const key = model
      ? `model\u0000${String(fields.turn)}\u0000${text(fields.via)}`
      : `tool\u0000${text(fields.tool_call_id)}\u0000${text(fields.alias)}\u0000${String(fields.turn)}`;
    let calls = open.get(entry);
    if (calls === undefined) {
      calls = new Map();
      open.set(entry, calls);
    }
    if (ended) {
      calls.delete(key);
      continue;
    }
    const what = model
      ? `model round ${String(fields.turn)} (${text(fields.via)}) on ${text(fields.role)} = ${text(fields.model)}`
      : `tool ${fields.tool === undefined ? `${text(fields.alias)} (local)` : text(fields.tool)} (${text(fields.caller)})`;
    calls.set(key, { kind: model ? "model" : "tool", what, seq: event.seq });
  }
  const byEntry = new Map<string, TimelineOpenCall[]>();
  for (const [entry, calls] of open) if (calls.size > 0) byEntry.set(entry, [...calls.values()]);
  return byEntry;
}

/** The timeline of a recorded run, from its events (the entries) and its effects. */
export function runTimeline(
  run: RecordedRun,
  effects: readonly EffectRecord[],
  events: readonly EventRecord[],
): RunTimeline {
  const entries: EntryDraft[] = [];
  const byEntry = new Map<string, EntryDraft>();
  for (const event of events) {
    if (event.type !== "section_entered") continue;
    const fields = record(JSON.parse(event.line));
    const entry: EntryDraft = {
      entry: text(fields.entry),
      section: text(fields.section),
      chain: event.chain,
      via: text(fields.via),
      effects: [],
      inProgress: [],
    };
    entries.push(entry);
    byEntry.set(entry.entry, entry);
  }
  for (const effect of effects) {
    let entry = byEntry.get(effect.origin.entry);
    if (entry === undefined) {
      entry = {
        entry: effect.origin.entry,
        section: effect.origin.section,
        chain: effect.origin.chain,
        via: "?",
        effects: [],
        inProgress: [],
      };
      entries.push(entry);
      byEntry.set(entry.entry, entry);
    }
    entry.effects.push({
      effect: effect.effect,
      kind: effect.kind,
      ...describe(effect),
      durationMs: effect.durationUs / 1000,
      ...(effect.failure === undefined ? {} : { failed: effect.failure.message }),
    });
  }
  // A run that ended has nothing in progress (a call its cancel cut off shows as it failed).
  if (run.result === undefined) {
    for (const [id, calls] of openCalls(events)) {
      const entry = byEntry.get(id);
      if (entry !== undefined) entry.inProgress.push(...calls);
    }
  }
  return { entries, toolCalls: countToolCalls(events), ending: endingOf(run) };
}

/** A duration for people: `850 µs`, `12.3 ms`, `1.25 s`. */
export function formatDuration(ms: number): string {
  if (ms < 1) return `${Math.round(ms * 1000)} µs`;
  if (ms < 1000) return `${ms.toFixed(ms < 10 ? 2 : 1)} ms`;
  return `${(ms / 1000).toFixed(2)} s`;
}

/** An instant in UTC: `2026-12-02 00:45:12Z`. */
export function formatInstant(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19).replace("T", " ")}Z`;
}

/** The run's duration, or `-` while it has no ending. */
export function runDuration(run: RunSummary): string {
  return run.endedAt === undefined ? "-" : formatDuration(run.endedAt - run.startedAt);
}

/**
 * The process recording a run with no ending, for `runs show --json`: its pid, host, and
 * whether it still runs as this host sees it (`alive`, `gone`: killed or crashed, `elsewhere`:
 * another host); null once the run ended or for a run recorded before owners were kept.
 */
export function recordedByJson(
  run: RecordedRun,
): { pid: number; host: string; state: "alive" | "gone" | "elsewhere" } | null {
  if (run.owner === undefined || run.outcome !== "running") return null;
  const state = ownerState(run.owner);
  return {
    pid: run.owner.pid,
    host: run.owner.host,
    state: state === "self" ? "alive" : state,
  };
}

/** How a run with no ending stands, from its recording process. */
function noEnding(run: RecordedRun): string {
  const by = recordedByJson(run);
  if (by === null) {
    return "no ending: the run is still going, or it was killed (its record ends at its last commit)";
  }
  const process = `process ${by.pid} on ${by.host}`;
  if (by.state === "alive") return `no ending yet: ${process} is recording it`;
  if (by.state === "gone") {
    return `no ending: ${process} that recorded it is gone (killed or crashed); runvil resume ${run.id} continues it`;
  }
  return `no ending: ${process} records it (or did; this host cannot tell)`;
}

/** `resumed 2 times (2026-12-02 00:45:12Z, 2026-12-02 00:47:30Z)`, or undefined when never. */
export function resumedText(run: RecordedRun): string | undefined {
  if (run.resumes === 0) return undefined;
  const times = run.resumes === 1 ? "once" : `${run.resumes} times`;
  const when = run.resumedAt.map(formatInstant).join(", ");
  return `resumed ${times}${when === "" ? "" : ` (${when})`}`;
}

/** `3 tool calls (1 catalog, 1 local, 1 task built-in)`; no breakdown for none. */
export function toolCallsText(counts: ToolCallCounts): string {
  const calls = `${counts.total} tool call${counts.total === 1 ? "" : "s"}`;
  if (counts.total === 0) return calls;
  const builtins = `${counts.taskBuiltins} task built-in${counts.taskBuiltins === 1 ? "" : "s"}`;
  return `${calls} (${counts.catalog} catalog, ${counts.local} local, ${builtins})`;
}

/** The `runvil runs show` text of a run. */
export function formatTimeline(run: RecordedRun, timeline: RunTimeline): string {
  const lines = [
    `run ${run.id} · ${run.promptPath} · ${run.outcome}${run.errorKind === undefined ? "" : ` (${run.errorKind})`} · ${runDuration(run)}`,
    `started ${formatInstant(run.startedAt)} · seed ${run.inputs.seed} · args ${JSON.stringify(run.inputs.args)} · prompt ${run.promptHash}`,
    `${run.effects} effects · ${run.modelRounds} model rounds · ${toolCallsText(timeline.toolCalls)} · ${run.inputTokens + run.outputTokens} tokens · ${run.events} events`,
  ];
  const resumed = resumedText(run);
  if (resumed !== undefined) lines.push(resumed);
  for (const entry of timeline.entries) {
    lines.push(
      `${entry.section} (entry ${entry.entry}, ${entry.via}${entry.chain === "0" ? "" : `, chain ${entry.chain}`})`,
    );
    for (const effect of entry.effects) {
      const usage =
        effect.usage === undefined
          ? ""
          : ` · ${effect.usage.inputTokens} in / ${effect.usage.outputTokens} out`;
      const failed = effect.failed === undefined ? "" : ` · failed: ${effect.failed}`;
      lines.push(
        `  ${effect.effect}  ${effect.what} · ${formatDuration(effect.durationMs)}${usage}${failed}`,
      );
    }
    for (const call of entry.inProgress) lines.push(`  …  ${call.what} · in progress`);
  }
  lines.push(timeline.ending ?? noEnding(run));
  return `${lines.join("\n")}\n`;
}
