/** The characters of one name segment (tools.txt "One name form for Packs and tools"). */
const SEGMENT = /^[a-z0-9._-]+$/;

/** A `vendor/name` split into its segments, or the reason it is not one. */
export type PackNameResult =
  | { readonly ok: true; readonly vendor: string; readonly name: string }
  | { readonly ok: false; readonly reason: string };

/**
 * Reads a Pack's fully qualified name, `vendor/name`: two segments of lowercase ASCII letters,
 * digits, `-`, `_` and `.`. The Host checks the same rule when the Pack is added; checking it
 * here lets a bad entry fail alone instead of failing the Host's setup.
 */
export function parsePackName(text: string): PackNameResult {
  const segments = text.split("/");
  if (segments.length !== 2) {
    return { ok: false, reason: "a Pack is named vendor/name, such as `acme/files`" };
  }
  const [vendor = "", name = ""] = segments;
  for (const segment of segments) {
    if (segment === "") return { ok: false, reason: "segments must not be empty" };
    if (!SEGMENT.test(segment)) {
      return {
        ok: false,
        reason: "segments may contain only lowercase ASCII letters, digits, '-', '_', '.'",
      };
    }
  }
  return { ok: true, vendor, name };
}
