import { hasBrand } from "./brand";

/**
 * The run store: the run's own files, which the `store` global reads and
 * writes and which Pack tools see through their ToolContext. Paths are
 * relative, `/`-separated names such as `notes/today.md`; contents are UTF-8
 * text. See docs/design/store.md for the path grammar and every reason.
 */

/**
 * A path, pattern or text handed to the store: a JS string, or the raw bytes
 * of a Lua string. The store checks that it is valid UTF-8 (a string with a
 * lone surrogate is not) and reports where it stops being valid.
 */
export type StoreText = string | Uint8Array;

/** Why a store operation failed (the error value's `reason` field). */
export type StoreErrorReason =
  /** The file does not exist. */
  | "not_found"
  /** The path breaks the path grammar (empty, absolute, `..`, NUL, a link that leads out, ...). */
  | "invalid_path"
  /** The glob pattern breaks the pattern grammar (unclosed `[`, `**` inside a segment, ...). */
  | "invalid_pattern"
  /** Contents (written or found on disk) are not valid UTF-8; `validUpTo` says where they stop being valid. */
  | "invalid_utf8"
  /** `edit`'s anchor text does not occur in the file (`count` is 0). */
  | "anchor_not_found"
  /** `edit`'s anchor text occurs more than once (`count` is how often). */
  | "anchor_not_unique"
  /** A file or the whole store would exceed its size limit. */
  | "too_large"
  /** The path names a directory where a file is needed, or a file where a directory is needed. */
  | "not_a_file"
  /** The backend failed (disk full, permission denied, ...). */
  | "io_error";

/** Every StoreErrorReason, in declaration order. */
export const STORE_ERROR_REASONS: readonly StoreErrorReason[] = [
  "not_found",
  "invalid_path",
  "invalid_pattern",
  "invalid_utf8",
  "anchor_not_found",
  "anchor_not_unique",
  "too_large",
  "not_a_file",
  "io_error",
];

/** What a store failure carries; the Engine raises it as an error value of kind `store`. */
export interface StoreFailure {
  /** Why it failed. */
  readonly reason: StoreErrorReason;
  /** The path as the caller gave it (the pattern for `glob`, `""` for `list()` without a path). */
  readonly path: string;
  /** Display text, e.g. `note.md: not found`. */
  readonly message: string;
  /** For `anchor_not_found` / `anchor_not_unique`: how often the anchor occurs. */
  readonly count?: number;
  /** For `invalid_utf8`: the number of leading bytes that are valid UTF-8. */
  readonly validUpTo?: number;
}

const BRAND: unique symbol = Symbol.for("runvil.StoreError");

/** A store failure thrown by a RunStore operation. */
export class StoreError extends Error implements StoreFailure {
  /** The brand that tells a StoreError apart across package copies (see {@link isInstance}). */
  declare readonly [BRAND]: true;

  static {
    // On the prototype, not enumerable: no own property for spreads, JSON or deep equality.
    Object.defineProperty(StoreError.prototype, BRAND, { value: true });
  }

  readonly reason: StoreErrorReason;
  readonly path: string;
  // `declare`: no own property unless the failure sets it, so `"count" in error` tells.
  declare readonly count?: number;
  declare readonly validUpTo?: number;

  constructor(failure: StoreFailure) {
    super(failure.message);
    this.name = "StoreError";
    this.reason = failure.reason;
    this.path = failure.path;
    if (failure.count !== undefined) this.count = failure.count;
    if (failure.validUpTo !== undefined) this.validUpTo = failure.validUpTo;
  }

  /** Whether `value` is a StoreError, from this copy of the SDK or another one. */
  static isInstance(value: unknown): value is StoreError {
    return hasBrand(value, BRAND);
  }
}

/**
 * The run's files. Every operation either completes or throws a StoreError;
 * no operation leaves a half-written file behind. Operations take effect in
 * the order they are called: each one is visible to every operation called
 * after it, from any caller.
 */
export interface RunStore {
  /** The file's text; `not_found` when absent, `invalid_utf8` when the file is not UTF-8. */
  read(path: StoreText): Promise<string>;
  /** Creates or replaces the file with `contents` (atomically), creating directories on demand. */
  write(path: StoreText, contents: StoreText): Promise<void>;
  /** Adds `text` at the end of the file, creating it when absent; adds no separator. */
  append(path: StoreText, text: StoreText): Promise<void>;
  /**
   * Replaces the one occurrence of `oldText` with `newText`; `anchor_not_found`
   * (count 0) or `anchor_not_unique` (count n, overlapping occurrences counted)
   * otherwise; `not_found` when the file is absent. An empty `oldText` is a
   * caller bug and throws a RangeError (`old must not be empty`).
   */
  edit(path: StoreText, oldText: StoreText, newText: StoreText): Promise<void>;
  /** Deletes the file; `not_found` when absent, `not_a_file` for a directory. */
  delete(path: StoreText): Promise<void>;
  /** Whether a file exists at `path` (false for a directory); `invalid_path` still throws. */
  exists(path: StoreText): Promise<boolean>;
  /**
   * Every file path under the directory `prefix` at any depth (all files when
   * absent), as full store paths sorted bytewise; `[]` for a missing directory,
   * `not_a_file` when `prefix` is a file.
   */
  list(prefix?: StoreText): Promise<string[]>;
  /** Every file path matching the glob `pattern` (`*`, `?`, `**`, `[...]`, `\`), sorted bytewise. */
  glob(pattern: StoreText): Promise<string[]>;
}
