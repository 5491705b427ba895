import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { JsonObject, ToolOutput } from "@runvil/sdk";

type Block = CallToolResult["content"][number];

/** One content block as text: text as is; other kinds as a short bracketed note. */
function blockText(block: Block): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "image":
      return `[image (${block.mimeType}) omitted]`;
    case "audio":
      return `[audio (${block.mimeType}) omitted]`;
    case "resource_link":
      return `[resource link: ${block.uri}]`;
    case "resource": {
      const resource = block.resource;
      return "text" in resource && typeof resource.text === "string"
        ? resource.text
        : `[resource ${resource.uri} omitted]`;
    }
    default:
      return "[content omitted]";
  }
}

/**
 * The plain output of a tool call: its content blocks as text, joined with a line break (text
 * blocks as they are, an image, audio or binary resource as a bracketed note); with no content
 * blocks, its structured content as JSON text; else the empty string.
 */
export function plainOutput(result: CallToolResult): string {
  const content = result.content ?? [];
  if (content.length > 0) return content.map(blockText).join("\n");
  if (result.structuredContent !== undefined) return JSON.stringify(result.structuredContent);
  return "";
}

/** The structured output of a tool call: its structured content, or undefined when it has none. */
export function structuredOutput(result: CallToolResult): ToolOutput | undefined {
  const structured = result.structuredContent;
  return structured === undefined ? undefined : (structured as JsonObject);
}

/** The text of an `isError` result's text blocks, for the failure of a trusted server. */
export function errorText(result: CallToolResult): string {
  return (result.content ?? [])
    .filter((block) => block.type === "text")
    .map((block) => (block.type === "text" ? block.text : ""))
    .join(" ");
}
