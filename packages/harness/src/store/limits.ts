/** Size limits of a store; both backends take them as options. */
export interface StoreLimits {
  /** The largest file, in UTF-8 bytes. */
  readonly maxFileBytes: number;
  /** The most bytes of file contents the whole store may hold. */
  readonly maxStoreBytes: number;
}

/** The default limits: 16 MiB per file, 256 MiB per store. */
export const DEFAULT_STORE_LIMITS: StoreLimits = Object.freeze({
  maxFileBytes: 16 * 1024 * 1024,
  maxStoreBytes: 256 * 1024 * 1024,
});

/** The longest path, in UTF-8 bytes. */
export const MAX_PATH_BYTES = 1024;

/** The longest path segment, in UTF-8 bytes (the common file-name limit). */
export const MAX_SEGMENT_BYTES = 255;

/** The longest glob pattern, in UTF-8 bytes (escapes make a pattern longer than its paths). */
export const MAX_PATTERN_BYTES = 4096;

/** Segments starting with this name the directory store's temporary files; no path may use it. */
export const TEMP_FILE_PREFIX = ".runvil-tmp";

/**
 * The defaults with `overrides` applied. Throws a RangeError for a limit that
 * is not a non-negative safe integer.
 */
export function resolveStoreLimits(overrides?: Partial<StoreLimits>): StoreLimits {
  const limits = { ...DEFAULT_STORE_LIMITS, ...overrides };
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new RangeError(`${name} must be a non-negative safe integer, got ${String(value)}`);
    }
  }
  return Object.freeze(limits);
}
