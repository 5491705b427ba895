/**
 * The full text of a compile error:
 * `lua compilation error at {location} (line {sourceLine}): {diagnostic}`.
 *
 * `location` is the block's location label (such as section `Check` epilog), `sourceLine` the
 * block's first Lua line in the prompt file, and `diagnostic` the Lua compiler's own message,
 * unchanged (its `[string "line N"]:L:` marker counts L from the top of the block).
 */
export function formatCompileError(
  location: string,
  sourceLine: number,
  diagnostic: string,
): string {
  return `lua compilation error at ${location} (line ${sourceLine}): ${diagnostic}`;
}

/** The fields of a {@link LuaCompileError}, for the object form of its constructor. */
export interface LuaCompileErrorInit {
  /** The block's location label, such as section `Check` epilog. */
  location: string;
  /** The block's first Lua line in the prompt file. */
  sourceLine: number;
  /** The Lua compiler's diagnostic, unchanged. */
  diagnostic: string;
  /** The full Lua source of the block that failed to compile. */
  source: string;
}

/**
 * A Lua block that does not compile. Its message is {@link formatCompileError}'s text and nothing
 * else; it also carries the block's full Lua source.
 *
 * Construct it with the fields in the order of {@link formatCompileError} plus the source, or with
 * one {@link LuaCompileErrorInit} object.
 */
export class LuaCompileError extends Error {
  override readonly name = "LuaCompileError";
  /** The block's location label, such as section `Check` epilog. */
  readonly location: string;
  /** The block's first Lua line in the prompt file. */
  readonly sourceLine: number;
  /** The Lua compiler's diagnostic, unchanged. */
  readonly diagnostic: string;
  /** The full Lua source of the block that failed to compile. */
  readonly source: string;

  constructor(init: LuaCompileErrorInit);
  constructor(location: string, sourceLine: number, diagnostic: string, source: string);
  constructor(
    initOrLocation: LuaCompileErrorInit | string,
    sourceLine?: number,
    diagnostic?: string,
    source?: string,
  ) {
    const init: LuaCompileErrorInit =
      typeof initOrLocation === "string"
        ? {
            location: initOrLocation,
            sourceLine: sourceLine ?? 0,
            diagnostic: diagnostic ?? "",
            source: source ?? "",
          }
        : initOrLocation;
    super(formatCompileError(init.location, init.sourceLine, init.diagnostic));
    this.location = init.location;
    this.sourceLine = init.sourceLine;
    this.diagnostic = init.diagnostic;
    this.source = init.source;
  }
}
