import type { EffectRecord, EventRecord, RecordedRun, RunSummary } from "@runvil/journal";
import { decodeValue } from "@runvil/journal";

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

/** One section entry and its effects. */
export interface TimelineEntry {
  readonly entry: string;
  readonly section: string;
  readonly chain: string;
  /** How it was entered (`h1`, `walk`, `jump`, `call`, …). */
  readonly via: string;
  readonly effects: readonly TimelineEffect[];
}

/** A run's timeline: its entries in the order they began, and how it ended. */
export interface RunTimeline {
  readonly entries: readonly TimelineEntry[];
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

/** The timeline of a recorded run, from its events (the entries) and its effects. */
export function runTimeline(
  run: RecordedRun,
  effects: readonly EffectRecord[],
  events: readonly EventRecord[],
): RunTimeline {
  const entries: {
    entry: string;
    section: string;
    chain: string;
    via: string;
    effects: TimelineEffect[];
  }[] = [];
  const byEntry = new Map<string, (typeof entries)[number]>();
  for (const event of events) {
    if (event.type !== "section_entered") continue;
    const fields = record(JSON.parse(event.line));
    const entry = {
      entry: text(fields.entry),
      section: text(fields.section),
      chain: event.chain,
      via: text(fields.via),
      effects: [],
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
  return { entries, ending: endingOf(run) };
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

/** The `runvil runs show` text of a run. */
export function formatTimeline(run: RecordedRun, timeline: RunTimeline): string {
  const lines = [
    `run ${run.id} · ${run.promptPath} · ${run.outcome}${run.errorKind === undefined ? "" : ` (${run.errorKind})`} · ${runDuration(run)}`,
    `started ${formatInstant(run.startedAt)} · seed ${run.inputs.seed} · args ${JSON.stringify(run.inputs.args)} · prompt ${run.promptHash}`,
    `${run.effects} effects · ${run.modelRounds} model rounds · ${run.toolCalls} tool calls · ${run.inputTokens + run.outputTokens} tokens · ${run.events} events`,
  ];
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
  }
  lines.push(
    timeline.ending ??
      "no ending: the run is still going, or it was killed (its record ends at its last effect)",
  );
  return `${lines.join("\n")}\n`;
}
