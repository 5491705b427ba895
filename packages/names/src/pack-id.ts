import { REASON_FULLY_QUALIFIED_NAME_SEGMENTS, REASON_PACK_ID_SEGMENTS } from "./reasons";
import { fail, type NameResult, ok } from "./result";
import { parseName } from "./segments";

/** The vendor of the official Packs; a bare uses: entry means the runvil Pack of that id. */
export const RUNVIL_VENDOR = "runvil";

/** A Pack's fully qualified name split into its vendor and its Pack id. */
export interface FullyQualifiedName {
  /** The first segment, e.g. "runvil" or "acme". */
  vendor: string;
  /** The second segment, the Pack id, e.g. "web". */
  packId: string;
  /** vendor/packId as written, e.g. "runvil/web". */
  fullName: string;
}

/**
 * Checks a Pack id: exactly one valid segment, such as `web` or `user-input`. The segments
 * are checked before the count, so `web/` gets the empty-segment reason.
 */
export function checkPackId(text: string): NameResult<string> {
  const parsed = parseName(text);
  if (!parsed.ok) return parsed;
  if (parsed.value.length !== 1) return fail(REASON_PACK_ID_SEGMENTS);
  return ok(text);
}

/**
 * Parses a Pack's fully qualified name: exactly two valid segments, vendor/name, such as
 * `runvil/web`. The Pack id is the second segment.
 */
export function parseFullyQualifiedName(text: string): NameResult<FullyQualifiedName> {
  const parsed = parseName(text);
  if (!parsed.ok) return parsed;
  const [vendor, packId] = parsed.value;
  if (parsed.value.length !== 2 || vendor === undefined || packId === undefined) {
    return fail(REASON_FULLY_QUALIFIED_NAME_SEGMENTS);
  }
  return ok({ vendor, packId, fullName: text });
}
