import { RUNVIL_VENDOR } from "./pack-id";
import { REASON_USES_ENTRY_SEGMENTS } from "./reasons";
import { fail, type NameResult, ok } from "./result";
import { parseName } from "./segments";

/** A parsed uses: entry. */
export interface UsesEntry {
  /** The entry as written, e.g. "web" or "acme/poop". */
  text: string;
  /** "runvil" for a bare entry, else the first segment. */
  vendor: string;
  /** The last segment: the Pack id, e.g. "poop". */
  packId: string;
  /** vendor/packId, e.g. "runvil/web". */
  fullName: string;
}

/**
 * Parses a uses: entry: a bare Pack id (`web`, meaning `runvil/web`) or a vendor/name
 * (`acme/web`). Segments are checked first, then the count (one or two).
 */
export function parseUsesEntry(text: string): NameResult<UsesEntry> {
  const parsed = parseName(text);
  if (!parsed.ok) return parsed;
  const segments = parsed.value;
  const [first, second] = segments;
  if (first === undefined || segments.length > 2) return fail(REASON_USES_ENTRY_SEGMENTS);
  if (second === undefined) {
    return ok({
      text,
      vendor: RUNVIL_VENDOR,
      packId: first,
      fullName: `${RUNVIL_VENDOR}/${first}`,
    });
  }
  return ok({ text, vendor: first, packId: second, fullName: text });
}

/**
 * The message for a malformed string entry, without the `invalid frontmatter: ` prefix the
 * parse error adds: ``invalid uses entry `{text}`: {reason}``.
 */
export function invalidUsesEntryMessage(text: string, reason: string): string {
  return `invalid uses entry \`${text}\`: ${reason}`;
}
