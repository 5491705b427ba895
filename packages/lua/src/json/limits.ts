/**
 * The numbers of the chapter's "Size and nesting limits" section.
 */

/** Largest text json.decode and json.decode_lines take, in bytes (the web/fetch JSON body cap). */
export const JSON_MAX_INPUT_BYTES = 8_388_608;

/** Deepest nesting of arrays and objects, in both directions (decode and encode). */
export const JSON_MAX_DEPTH = 127;

/** Default Lua memory limit of a section VM, `lua_memory_bytes` (64 MiB). */
export const DEFAULT_LUA_MEMORY_BYTES = 67_108_864;

/** Most keys that are not numbers or booleans on one path of an encode walk. */
export const JSON_MAX_PATH_KEYS = 100_000;

/** Limits of one decode call. */
export interface JsonDecodeLimits {
  /** Text longer than this many bytes is refused before parsing (8,388,608 by default). */
  readonly maxInputBytes: number;
  /** Arrays and objects nested deeper than this are refused (127 by default). */
  readonly maxDepth: number;
}

/** The limits json.decode and json.decode_lines use. */
export const JSON_DECODE_LIMITS: JsonDecodeLimits = Object.freeze({
  maxInputBytes: JSON_MAX_INPUT_BYTES,
  maxDepth: JSON_MAX_DEPTH,
});

/** Limits of one encode call: the nesting limit and the size budget of the walk. */
export interface JsonEncodeLimits {
  /** A table at a deeper level than this is refused; the value passed is level 1 (127). */
  readonly maxDepth: number;
  /** Values the walk may visit, every place a table appears counting (memory / 8). */
  readonly maxValues: number;
  /** Bytes of string values and string keys the walk may visit (the memory limit itself). */
  readonly maxStringBytes: number;
  /** Keys that are not numbers or booleans summed over the tables on one path (100,000). */
  readonly maxPathKeys: number;
}

/**
 * The encode limits for a Lua memory limit, as "Size and nesting limits" derives them:
 * one eighth of the limit in values, the limit itself in string bytes, 100,000 path keys.
 */
export function jsonEncodeLimits(
  luaMemoryBytes: number = DEFAULT_LUA_MEMORY_BYTES,
): JsonEncodeLimits {
  return Object.freeze({
    maxDepth: JSON_MAX_DEPTH,
    maxValues: Math.floor(luaMemoryBytes / 8),
    maxStringBytes: luaMemoryBytes,
    maxPathKeys: JSON_MAX_PATH_KEYS,
  });
}
