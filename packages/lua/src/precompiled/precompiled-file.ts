/**
 * The precompiled-Lua file: the bytecode of the Engine's own Lua chunks, built once (the CLI's
 * build writes it beside its worker bundle) so that a process loads it instead of compiling the
 * chunks from source (docs/design/performance.md). JSON:
 * `{ "runvilPrecompiledLua": 1, "chunks": [{ "name", "source", "bytecode" }] }`, where
 * `source` is the text the chunk was compiled from (a lookup compares it whole: a native string
 * comparison, where hashing the text in JS cost more than compiling it) and `bytecode` is the
 * `lua_dump` (debug information kept) in base64.
 */

/** The format version the file's `runvilPrecompiledLua` field holds. */
export const PRECOMPILED_LUA_FORMAT = 1;

/** One chunk's bytecode and what it was compiled from. */
export interface PrecompiledChunk {
  /** The chunk name (`@runvil/errors.lua`). */
  readonly name: string;
  /** The source text it was compiled from. */
  readonly source: string;
  /** The `lua_dump` of the compiled chunk. */
  readonly bytecode: Uint8Array;
}

/** The file's text for `chunks`. */
export function encodePrecompiledLua(chunks: Iterable<PrecompiledChunk>): string {
  const entries = [...chunks].map((chunk) => ({
    name: chunk.name,
    source: chunk.source,
    bytecode: Buffer.from(
      chunk.bytecode.buffer,
      chunk.bytecode.byteOffset,
      chunk.bytecode.byteLength,
    ).toString("base64"),
  }));
  return `${JSON.stringify({ runvilPrecompiledLua: PRECOMPILED_LUA_FORMAT, chunks: entries })}\n`;
}

/** What {@link decodePrecompiledLua} found: the chunks, or why the text is not such a file. */
export type DecodedPrecompiledLua =
  | { readonly ok: true; readonly chunks: readonly PrecompiledChunk[] }
  | { readonly ok: false; readonly reason: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Reads a precompiled-Lua file's text; anything else is refused with the reason. */
export function decodePrecompiledLua(text: string): DecodedPrecompiledLua {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      reason: `not JSON (${error instanceof Error ? error.message : String(error)})`,
    };
  }
  if (!isRecord(parsed) || parsed.runvilPrecompiledLua !== PRECOMPILED_LUA_FORMAT) {
    return { ok: false, reason: `not a precompiled-Lua file of format ${PRECOMPILED_LUA_FORMAT}` };
  }
  if (!Array.isArray(parsed.chunks)) return { ok: false, reason: "chunks is not a list" };
  const chunks: PrecompiledChunk[] = [];
  for (const [index, entry] of parsed.chunks.entries()) {
    if (
      !isRecord(entry) ||
      typeof entry.name !== "string" ||
      typeof entry.source !== "string" ||
      typeof entry.bytecode !== "string"
    ) {
      return { ok: false, reason: `chunks[${index}] is not { name, source, bytecode }` };
    }
    chunks.push({
      name: entry.name,
      source: entry.source,
      bytecode: new Uint8Array(Buffer.from(entry.bytecode, "base64")),
    });
  }
  return { ok: true, chunks };
}
