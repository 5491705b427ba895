/** Result of a name check: the parsed value, or the exact reason text from the chapter. */
export type NameResult<T> = { ok: true; value: T } | { ok: false; reason: string };

/** Wraps a parsed value as a successful {@link NameResult}. */
export function ok<T>(value: T): NameResult<T> {
  return { ok: true, value };
}

/** Wraps a reason text as a failed {@link NameResult}. */
export function fail<T>(reason: string): NameResult<T> {
  return { ok: false, reason };
}
