import { REASON_TOOL_ID_SEGMENTS } from "./reasons";
import { fail, type NameResult, ok } from "./result";
import { parseName } from "./segments";

/** A parsed tool id, such as `web/fetch` or `pack/group/tool`. */
export interface ToolId {
  /** The tool id as written, its canonical slash-separated form, e.g. "web/fetch". */
  id: string;
  /** The first segment: the id of the Pack that owns the tool, e.g. "web". */
  packId: string;
  /** Every segment in order, the Pack id first; joined by `/` they give back `id`. */
  segments: readonly string[];
  /** The last segment: the tool's name, e.g. "fetch". */
  toolName: string;
}

/**
 * Parses a tool id: two or more valid segments with the owning Pack's id first. Segments are
 * checked first, then the count, so a bare tool name such as `fetch` is not a tool id.
 */
export function parseToolId(text: string): NameResult<ToolId> {
  const parsed = parseName(text);
  if (!parsed.ok) return parsed;
  const segments = parsed.value;
  const packId = segments[0];
  const toolName = segments[segments.length - 1];
  if (segments.length < 2 || packId === undefined || toolName === undefined) {
    return fail(REASON_TOOL_ID_SEGMENTS);
  }
  return ok({ id: text, packId, segments, toolName });
}
