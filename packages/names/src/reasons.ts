/**
 * The reason texts of the tools chapter, "Name errors and their reasons".
 *
 * The first three are the segment reasons every name shares. The segment-count reasons
 * depend on what was read. The texts for a Pack id and a uses: entry are quoted by the
 * chapter; the tool id and fully qualified name texts are reconstructed in the same style
 * (see docs/design/names.md).
 */

/** A segment is empty: an empty name, a leading `/`, a trailing `/`, or a doubled `/`. */
export const REASON_EMPTY_SEGMENT = "segments must not be empty";

/** A segment holds a control character: a code below 0x20, or 0x7F. */
export const REASON_CONTROL_CHARACTER = "segments must not contain a control character";

/** A segment holds any other character outside `a-z`, `0-9`, `-`, `_`, `.`. */
export const REASON_BAD_CHARACTER =
  "segments may contain only lowercase ASCII letters, digits, '-', '_', '.'";

/** A Pack id that is not exactly one segment. */
export const REASON_PACK_ID_SEGMENTS = "a Pack id is one segment, such as `web`, with no '/'";

/** A uses: entry that is not one segment or two. */
export const REASON_USES_ENTRY_SEGMENTS =
  "a uses entry is a Pack id, such as `web`, or vendor/name, such as `acme/web`";

/** A tool id with fewer than two segments (reconstructed: the chapter gives no text). */
export const REASON_TOOL_ID_SEGMENTS = "a tool id is two or more segments, such as `web/fetch`";

/** A fully qualified Pack name that is not exactly two segments (reconstructed). */
export const REASON_FULLY_QUALIFIED_NAME_SEGMENTS =
  "a fully qualified name is vendor/name, such as `runvil/web`";

/** The alias grammar shared by local tool aliases, model role labels and arg names. */
export const ALIAS_GRAMMAR = "[A-Za-z][A-Za-z0-9_-]{0,63}";

/** The reason for a string outside the alias grammar. */
export const REASON_ALIAS = `expected ${ALIAS_GRAMMAR}`;

/** Message part for a uses: entry that is not a string (a number, a map of settings, ...). */
export const USES_ENTRY_NOT_STRING =
  "expected a Pack id, such as `web`, or vendor/name, such as `acme/web`";

/** The grammar of a catalog model id (docs/design/models.md). */
export const MODEL_ID_GRAMMAR = "[A-Za-z0-9][A-Za-z0-9._:/@+-]{0,127}";

/** The reason for a string outside the catalog model id grammar. */
export const REASON_MODEL_ID = `expected ${MODEL_ID_GRAMMAR}`;
