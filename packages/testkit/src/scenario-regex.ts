/**
 * Flags of every `*_matches` regular expression: `u` (Unicode: `.` is one code point, `\u{...}`
 * escapes work, stray escapes are syntax errors). Without `m`, `^` and `$` anchor the whole
 * text; without `s`, `.` does not match a newline, so `[\s\S]` spans lines.
 */
export const SCENARIO_REGEX_FLAGS = "u";

/** Compiles a `*_matches` source with {@link SCENARIO_REGEX_FLAGS}. */
export function compileScenarioRegex(
  source: string,
): { ok: true; regex: RegExp } | { ok: false; reason: string } {
  try {
    return { ok: true, regex: new RegExp(source, SCENARIO_REGEX_FLAGS) };
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    return { ok: false, reason: text };
  }
}
