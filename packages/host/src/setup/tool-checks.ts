import { parseToolId } from "@runvil/names";
import type { DroppedTool } from "@runvil/protocol";
import type { ToolDefinition } from "@runvil/sdk";

/** The reason the chapter gives for a tool whose first segment is not its Pack's id. */
export const REASON_TOOL_ESCAPES_PACK = "a Pack's tool id escapes its Pack id; dropped";

/** The reason for a tool whose id is not a valid tool id. */
export function malformedToolIdReason(reason: string): string {
  return `a Pack's tool id is malformed (${reason}); dropped`;
}

/** The reason for a second tool with an id the Pack already contributed. */
export const REASON_TOOL_REPEATED = "a Pack's tool id repeats another of its tools; dropped";

/** The reason for a tool that is not an object with a string description and a run function. */
export const REASON_TOOL_SHAPE =
  "a Pack's tool is not a tool (it needs a string description and a run function); dropped";

/** A Pack's tools split into the kept ones (sorted by id) and the dropped ones (in Pack order). */
export interface CheckedTools {
  readonly kept: readonly ToolDefinition[];
  readonly dropped: readonly DroppedTool[];
}

function describeId(id: unknown): string {
  return typeof id === "string" ? id : String(id);
}

/**
 * Checks the tools a Pack contributes: every tool id must be a valid tool id whose first
 * segment is the Pack id, appear once in the Pack, and belong to a tool with a string
 * description and a run function. The others are dropped with their reason; the rest stay.
 */
export function checkPackTools(packId: string, tools: readonly unknown[]): CheckedTools {
  const kept = new Map<string, ToolDefinition>();
  const dropped: DroppedTool[] = [];
  for (const candidate of tools) {
    const tool = candidate as Partial<ToolDefinition> | null;
    const id: unknown = typeof tool === "object" && tool !== null ? tool.id : undefined;
    const drop = (reason: string): void => {
      dropped.push({ tool: describeId(id), pack: packId, reason });
    };
    if (typeof id !== "string") {
      drop(malformedToolIdReason(`a tool id must be a string, got ${typeof id}`));
      continue;
    }
    const parsed = parseToolId(id);
    if (!parsed.ok) drop(malformedToolIdReason(parsed.reason));
    else if (parsed.value.packId !== packId) drop(REASON_TOOL_ESCAPES_PACK);
    else if (typeof tool?.description !== "string" || typeof tool.run !== "function") {
      drop(REASON_TOOL_SHAPE);
    } else if (kept.has(id)) drop(REASON_TOOL_REPEATED);
    else kept.set(id, tool as ToolDefinition);
  }
  return { kept: [...kept.values()].sort(byId), dropped };
}

/** Orders tools by tool id (code unit order, the same as byte order for valid ids). */
export function byId(a: { readonly id: string }, b: { readonly id: string }): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
