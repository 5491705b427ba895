import { type BlockLocator, mapChunkMarkers } from "./map-markers";

/**
 * Builds the message of an uncaught Lua runtime error the way the chapter
 * states it: every marker of the failing VM's blocks mapped, one leading
 * `{label}:{line}: runtime error: ` prefix taken from the first marker that
 * was rewritten, then the mapped message; the mapped `stack traceback:` (if
 * any) follows on the next lines. Text that names no block of the VM passes
 * through unchanged, with nothing added.
 */
export function formatUncaughtRuntimeError(
  message: string,
  traceback: string | undefined,
  locate: BlockLocator,
): string {
  const head = mapChunkMarkers(message, locate);
  const first = head.first;
  const text =
    first === undefined ? head.text : `${first.label}:${first.line}: runtime error: ${head.text}`;
  if (traceback === undefined || traceback === "") return text;
  return `${text}\n${mapChunkMarkers(traceback, locate).text}`;
}
