import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { PaginatedResultSchema } from "@modelcontextprotocol/sdk/types.js";
import type { JsonObject, JsonValue } from "@runvil/sdk";

/** The most pages of `tools/list` read from one server. */
export const MAX_TOOL_PAGES = 100;

/** One tool a server listed, as far as the Pack needs it. */
export interface ListedTool {
  /** The server's name for the tool (sent back in `tools/call`). */
  readonly name: string;
  /** Its description (or title), if it gave one. */
  readonly description: string | undefined;
  /** Its input schema exactly as listed (the Host decides what a non-object schema means). */
  readonly inputSchema: JsonValue;
  /** Its output schema when it listed a JSON object as one. */
  readonly outputSchema: JsonObject | undefined;
}

/** What a server's listing gave: its tools (entries with no string `name` are skipped). */
export interface ToolListing {
  readonly tools: readonly ListedTool[];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A listed value as JSON data (what the Host and the model read): undefined and functions dropped. */
function asJson(value: unknown): JsonValue {
  return value === undefined ? null : (JSON.parse(JSON.stringify(value) ?? "null") as JsonValue);
}

/**
 * Lists every tool of a connected server (`tools/list`, following `nextCursor` up to
 * {@link MAX_TOOL_PAGES} pages). The listing is read leniently, entry by entry, rather than
 * with the client's `listTools` (whose schema refuses the whole list for one tool with a
 * non-object input schema): an entry keeps its name, description and input schema as sent, so
 * the Host's own rules decide what a malformed tool means.
 */
export async function listServerTools(client: Client, timeoutMs: number): Promise<ToolListing> {
  const tools: ListedTool[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_TOOL_PAGES; page++) {
    const result = await client.request(
      { method: "tools/list", params: cursor === undefined ? {} : { cursor } },
      PaginatedResultSchema,
      { timeout: timeoutMs },
    );
    const entries: unknown = (result as Record<string, unknown>).tools;
    if (!Array.isArray(entries)) {
      throw new Error("the server's tools/list result has no tools array");
    }
    for (const entry of entries) {
      // Nothing names such an entry, in the Host's log or to a caller: it is skipped.
      if (!isObject(entry) || typeof entry.name !== "string") continue;
      const description =
        typeof entry.description === "string"
          ? entry.description
          : typeof entry.title === "string"
            ? entry.title
            : undefined;
      const output = entry.outputSchema;
      tools.push({
        name: entry.name,
        description,
        inputSchema: asJson(entry.inputSchema),
        outputSchema: isObject(output) ? (asJson(output) as JsonObject) : undefined,
      });
    }
    cursor = result.nextCursor;
    if (cursor === undefined) break;
  }
  return { tools };
}
