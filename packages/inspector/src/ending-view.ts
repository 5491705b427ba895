import type { EventRecord, RecordedRun } from "@runvil/journal";
import { fieldsOf, type PlainValue, plainOf, textOf } from "./plain-value";
import type { EndingView, PromptLine } from "./view-types";

/** At most this many prompt lines are shown around an error. */
export const MAX_ERROR_LINES = 40;

const FENCE = /^\s*(```|~~~)/;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * The prompt line an error message names: after the failed block's label (`section \`Two\`
 * prologue:18:`), else the first `label:N:` in it; null when it names none in the prompt.
 */
export function errorLine(message: string, block: string | null, lineCount: number): number | null {
  const labelled =
    block === null ? null : new RegExp(`${escapeRegExp(block)}:(\\d+):`).exec(message);
  const found = labelled ?? /:(\d+):/.exec(message);
  if (found === null) return null;
  const n = Number(found[1]);
  return n >= 1 && n <= lineCount ? n : null;
}

/** The fenced block around line `n` (1-based), its fences included, at most MAX_ERROR_LINES. */
export function blockAround(lines: readonly string[], n: number): PromptLine[] {
  let first = n;
  while (first > 1 && !FENCE.test(lines[first - 1] ?? "")) first -= 1;
  if (!FENCE.test(lines[first - 1] ?? "")) first = Math.max(1, n - 3);
  let last = n;
  while (last < lines.length && !FENCE.test(lines[last - 1] ?? "")) last += 1;
  if (last - first + 1 > MAX_ERROR_LINES) {
    first = Math.max(first, n - MAX_ERROR_LINES / 2);
    last = Math.min(last, first + MAX_ERROR_LINES - 1);
  }
  const shown: PromptLine[] = [];
  for (let i = first; i <= last; i += 1) {
    shown.push({ n: i, text: lines[i - 1] ?? "", marked: i === n });
  }
  return shown;
}

/** The heading of `section` and the lines after it (up to its first block's end), or none. */
export function sectionLines(lines: readonly string[], section: string): PromptLine[] {
  const heading = new RegExp(`^#{1,2}\\s+${escapeRegExp(section)}\\s*$`);
  const index = lines.findIndex((line) => heading.test(line));
  if (index < 0) return [];
  const shown: PromptLine[] = [];
  let fences = 0;
  for (let i = index; i < lines.length && shown.length < MAX_ERROR_LINES; i += 1) {
    const text = lines[i] ?? "";
    if (i > index && /^#{1,2}\s/.test(text) && fences % 2 === 0) break;
    shown.push({ n: i + 1, text, marked: i === index });
    if (FENCE.test(text)) {
      fences += 1;
      if (fences === 2) break;
    }
  }
  return shown;
}

/** The label of the block that failed in `entry` (its last `chunk_failed`), if any. */
function failedBlock(events: readonly EventRecord[], entry: string | null): string | null {
  for (let i = events.length - 1; i >= 0; i -= 1) {
    const event = events[i];
    if (event?.type !== "chunk_failed") continue;
    const fields = fieldsOf(JSON.parse(event.line) as PlainValue);
    if (entry === null || fields.entry === entry)
      return typeof fields.block === "string" ? fields.block : null;
  }
  return null;
}

/** How the run ended, with the error's place in the prompt; null while it has no ending. */
export function endingView(run: RecordedRun, events: readonly EventRecord[]): EndingView | null {
  if (run.result === undefined) return null;
  const result = fieldsOf(plainOf(run.result));
  const outcome = typeof result.outcome === "string" ? result.outcome : run.outcome;
  if (outcome !== "failed") {
    return {
      outcome,
      result: result.result === undefined || result.result === null ? null : textOf(result.result),
      error: null,
      stopped: result.stopped === true,
    };
  }
  const error = fieldsOf(result.error);
  const message = textOf(error.message);
  const entry = typeof error.entry === "string" ? error.entry : null;
  const section = typeof error.section === "string" ? error.section : null;
  const lines = new TextDecoder().decode(run.inputs.promptBytes).split(/\r?\n/);
  const line = errorLine(message, failedBlock(events, entry), lines.length);
  let shown: PromptLine[] = [];
  if (line !== null) shown = blockAround(lines, line);
  else if (section !== null) shown = sectionLines(lines, section);
  return {
    outcome,
    result: null,
    error: {
      kind: textOf(error.kind),
      message,
      causes: Array.isArray(error.causes) ? error.causes.map((c) => textOf(c)) : [],
      section,
      entry,
      line,
      lines: shown,
    },
    stopped: false,
  };
}
