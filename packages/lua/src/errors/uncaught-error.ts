import { formatCompileError } from "../compile-error";
import { EngineError } from "../engine-error";
import { type BlockLocator, mapChunkMarkers } from "../error-location/map-markers";
import { formatUncaughtRuntimeError } from "../error-location/runtime-error";
import { CANCELLED_MESSAGE } from "../vm/cancel";
import type { BlockFailure } from "../vm/outcome";

/** How an uncaught failure of a block ends the run. */
export interface UncaughtError {
  /** `cancelled` for a cancelled block or an uncaught `cancelled` error value, else `failed`. */
  readonly outcome: "failed" | "cancelled";
  /**
   * The run error's message. A Lua runtime error reads
   * `{label}:{line}: runtime error: {label}:{line}: {text}` with every marker of the VM's blocks
   * mapped, then the mapped `stack traceback:` on the next lines; a message that names none of
   * the VM's blocks passes unchanged (traceback still added). An Engine error value's message is
   * its own, unchanged.
   */
  readonly message: string;
  /**
   * The failure as an Engine error: the error value's own kind, message, fields and quota mark,
   * or for a plain Lua failure kind `lua` with the raised text, markers mapped, no traceback.
   * What a caller in another VM (call, tasks.join, require) raises or reports, and what the
   * Engine reads the run error kind from (its kind, and its quota mark).
   */
  readonly error: EngineError;
}

/** `[string "line N"]:L:` — Lua's own position marker for a Runvil block. */
const POSITION = /\[string "line (\d+)"\]:(\d+):/g;

/**
 * Turns a block's failed outcome into how it ends the run ("What an uncaught error ends",
 * "Re-raising a caught error value", GAPS.md G19). `locate` names the blocks of the failing VM
 * (and the libraries it loaded) by their first prompt line; markers of other blocks stay as Lua
 * wrote them.
 *
 * - cancelled (reason, or a `cancelled` error value): outcome cancelled.
 * - an error value of another kind than `lua`, or a `lua` one marked as a quota refusal: the
 *   value itself, its message unchanged (the Engine reads the run error kind from its kind and
 *   quota mark: store → Vfs, the tool kinds → Tool, a quota refusal → Quota, …).
 * - any other `lua` error value: as a runtime error raised where the value was raised (the
 *   traceback's first frame in a known block), so it names the block and the absolute line.
 * - anything else (a string, a number, your own table, a memory refusal): kind `lua`, the
 *   mapped runtime error (see UncaughtError.message).
 * - a load failure (a compile error during the run): kind `lua`,
 *   `lua compilation error at {label} (line N): {diagnostic}` when the block is known.
 */
export function uncaughtError(failure: BlockFailure, locate: BlockLocator): UncaughtError {
  if (failure.reason === "cancelled") {
    return {
      outcome: "cancelled",
      message: CANCELLED_MESSAGE,
      error: new EngineError("cancelled", CANCELLED_MESSAGE),
    };
  }
  if (failure.reason === "load") return loadFailure(failure.message, locate);
  const value = failure.errorValue;
  if (value !== undefined) {
    if (value.kind === "cancelled") {
      return {
        outcome: "cancelled",
        message: value.message,
        error: value,
      };
    }
    if (value.kind !== "lua" || value.quota || value.runErrorKind !== undefined) {
      return { outcome: "failed", message: value.message, error: value };
    }
    const at = raisePoint(failure.traceback, locate);
    const raw = at === undefined ? value.message : `${at}: ${value.message}`;
    return {
      outcome: "failed",
      message: formatUncaughtRuntimeError(raw, failure.traceback, locate),
      error: value,
    };
  }
  return {
    outcome: "failed",
    message: formatUncaughtRuntimeError(failure.message, failure.traceback, locate),
    error: new EngineError("lua", mapChunkMarkers(failure.message, locate).text),
  };
}

/** A chunk that did not load during the run: a compile error, located when the block is known. */
function loadFailure(diagnostic: string, locate: BlockLocator): UncaughtError {
  const first = firstKnownPosition(diagnostic, locate);
  const message =
    first === undefined ? diagnostic : formatCompileError(first.label, first.line, diagnostic);
  return {
    outcome: "failed",
    message,
    error: new EngineError("lua", message),
  };
}

/**
 * The raw marker `[string "line N"]:L` of the first traceback frame that lies in a known block:
 * where a value was raised (the frames before it are C functions such as `error`).
 */
function raisePoint(traceback: string, locate: BlockLocator): string | undefined {
  for (const match of traceback.matchAll(POSITION)) {
    if (locate(Number(match[1])) !== undefined) return match[0].slice(0, -1);
  }
  return undefined;
}

/** The first marker of a known block in `text`: its label and the block's first line. */
function firstKnownPosition(
  text: string,
  locate: BlockLocator,
): { label: string; line: number } | undefined {
  for (const match of text.matchAll(POSITION)) {
    const line = Number(match[1]);
    const label = locate(line);
    if (label !== undefined) return { label, line };
  }
  return undefined;
}
