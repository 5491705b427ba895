/**
 * Maps Lua's own position markers for Runvil blocks to location labels and
 * absolute prompt lines.
 *
 * A block is compiled with the chunk name `line N` (N = its first prompt
 * line), so Lua writes its positions as `[string "line N"]:L`, with L counted
 * from the top of the block. The mapped form is `{label}:{N + L - 1}`.
 */

/**
 * Finds the location label of a block known to the failing VM by the first
 * prompt line in its chunk name, or `undefined` for a block the VM does not
 * own (whose markers are then left as they are).
 */
export type BlockLocator = (firstLine: number) => string | undefined;

/** The first marker a mapping rewrote: where the error was raised. */
export interface MappedPosition {
  /** The block's location label, such as ``section `Check` epilog``. */
  readonly label: string;
  /** The absolute prompt line. */
  readonly line: number;
}

/** The result of {@link mapChunkMarkers}. */
export interface MappedText {
  /** The text with every marker of a known block rewritten. */
  readonly text: string;
  /** The first marker rewritten, if any. */
  readonly first: MappedPosition | undefined;
}

const MARKER = /\[string "line (\d+)"\]:(\d+)/g;

/**
 * Rewrites every `[string "line N"]:L` marker whose block `locate` knows into
 * `{label}:{absolute line}`. Markers of unknown blocks, and text that is
 * already mapped, pass through unchanged, so mapping twice never shifts a
 * line a second time.
 */
export function mapChunkMarkers(text: string, locate: BlockLocator): MappedText {
  let first: MappedPosition | undefined;
  const mapped = text.replace(MARKER, (marker, start: string, offset: string) => {
    const firstLine = Number(start);
    const label = locate(firstLine);
    if (label === undefined) return marker;
    const line = firstLine + Number(offset) - 1;
    first ??= { label, line };
    return `${label}:${line}`;
  });
  return { text: mapped, first };
}
