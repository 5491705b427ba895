import { existsSync, readFileSync } from "node:fs";
import { loadEngine } from "@runvil/engine";
import {
  createReplayPort,
  type Divergence,
  type EventComparison,
  encodeValue,
  type Journal,
  promptHash,
  type RecordedRun,
} from "@runvil/journal";
import { loadLuaRuntime } from "@runvil/lua";
import { createPromptParser } from "@runvil/parser";
import type { RunResult } from "@runvil/protocol";
import { formatParseError } from "../format-parse-error";
import type { CliHostSnapshot } from "../journal/record-run";

/** How the replay of one recorded run went. */
export type ReplayVerdict =
  /** Same result, every effect answered, the events identical (or identical per chain). */
  | {
      readonly kind: "reproduced";
      readonly effects: number;
      readonly events: Exclude<EventComparison, "different">;
      readonly eventCount: number;
    }
  /** The first divergence (an effect, or an event), and the lines of the block it happened in. */
  | {
      readonly kind: "diverged";
      readonly divergence: Divergence;
      readonly lines?: { readonly first: number; readonly last: number };
    }
  /** Every effect and event matched, but the result did not. */
  | { readonly kind: "different_result"; readonly recorded: string; readonly replayed: string }
  /** The run cannot be replayed (no ending, a prompt that no longer parses, …). */
  | { readonly kind: "cannot_replay"; readonly reason: string };

/** Which prompt text a replay runs. */
export interface ReplaySource {
  /** Replay the text the journal recorded even when the prompt file still exists. */
  readonly recorded: boolean;
}

/** The replay of one run, with a note on which prompt text ran. */
export interface ReplayReport {
  readonly run: RecordedRun;
  /** `the prompt file changed since the recording`, or undefined when the recorded text ran. */
  readonly note?: string;
  readonly verdict: ReplayVerdict;
}

/** The prompt lines of the block with this location label (the parser's LuaBlock), if any. */
function blockLines(prompt: unknown, label: string): { first: number; last: number } | undefined {
  const seen = new Set<unknown>();
  const visit = (value: unknown): { first: number; last: number } | undefined => {
    if (typeof value !== "object" || value === null || seen.has(value)) return undefined;
    seen.add(value);
    const fields = value as Record<string, unknown>;
    if (
      fields.label === label &&
      typeof fields.firstLine === "number" &&
      typeof fields.lastLine === "number"
    ) {
      return { first: fields.firstLine, last: fields.lastLine };
    }
    for (const item of Array.isArray(value) ? value : Object.values(fields)) {
      const found = visit(item);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  return visit(prompt);
}

function snapshotOf(run: RecordedRun): CliHostSnapshot | undefined {
  const host = run.inputs.host as Partial<CliHostSnapshot> | null;
  return host !== null && typeof host === "object" && host.catalog !== undefined
    ? (host as CliHostSnapshot)
    : undefined;
}

/**
 * Replays a recorded run (docs/design/journal.md "Replay"): runs the prompt again — the file at
 * its recorded place when it is still there (so an edited prompt shows where it diverges), else
 * the recorded text — with the recorded args, seed and catalog, every effect answered by the
 * journal and nothing live. The run is cancelled at the first divergence.
 */
export async function replayRun(
  journal: Journal,
  run: RecordedRun,
  source: ReplaySource,
): Promise<ReplayReport> {
  const snapshot = snapshotOf(run);
  if (run.result === undefined) {
    return {
      run,
      verdict: {
        kind: "cannot_replay",
        reason:
          "it has no ending (it is still running, or it was killed): there is no result to compare with",
      },
    };
  }
  if (snapshot === undefined) {
    return {
      run,
      verdict: {
        kind: "cannot_replay",
        reason: "its record has no Host snapshot (not recorded by runvil run)",
      },
    };
  }
  let bytes = run.inputs.promptBytes;
  let note: string | undefined;
  if (!source.recorded && existsSync(snapshot.promptFile)) {
    const current = new Uint8Array(readFileSync(snapshot.promptFile));
    if (promptHash(current) !== run.promptHash) {
      note = `the prompt file ${run.promptPath} changed since the recording; replaying the file as it is now (--recorded replays the recorded text)`;
    }
    bytes = current;
  }
  const parsed = createPromptParser(await loadLuaRuntime())(bytes, { path: run.inputs.promptPath });
  if (!parsed.ok) {
    return {
      run,
      ...(note === undefined ? {} : { note }),
      verdict: {
        kind: "cannot_replay",
        reason: formatParseError(run.inputs.promptPath, parsed.error),
      },
    };
  }
  const [effects, events] = await Promise.all([
    journal.readEffects(run.id),
    journal.readEvents(run.id),
  ]);
  const cancel = new AbortController();
  const replay = createReplayPort(effects, events, { onDivergence: () => cancel.abort() });
  const engine = await loadEngine();
  const result: RunResult = await engine.run(parsed.prompt, {
    effects: replay.effects,
    args: run.inputs.args,
    catalog: snapshot.catalog,
    seed: BigInt(run.inputs.seed),
    signal: cancel.signal,
    shouldCancel: () => cancel.signal.aborted,
  });
  const concluded = replay.conclude();
  const withNote = note === undefined ? {} : { note };
  if (concluded.divergence !== undefined) {
    const block = concluded.divergence.place.block;
    const lines = block === undefined ? undefined : blockLines(parsed.prompt, block);
    return {
      run,
      ...withNote,
      verdict: {
        kind: "diverged",
        divergence: concluded.divergence,
        ...(lines === undefined ? {} : { lines }),
      },
    };
  }
  const replayed = encodeValue(result);
  if (replayed !== run.result) {
    return {
      run,
      ...withNote,
      verdict: { kind: "different_result", recorded: run.result, replayed },
    };
  }
  return {
    run,
    ...withNote,
    verdict: {
      kind: "reproduced",
      effects: replay.answered,
      events: concluded.events === "different" ? "identical_per_chain" : concluded.events,
      eventCount: events.length,
    },
  };
}
