import { defineTool, type JsonObject, type ToolDefinition, ToolFailure } from "@runvil/sdk";
import { MISSING_URL_MESSAGE, URL_NOT_STRING_MESSAGE } from "./http/fetch-failures";
import type { WebBackend } from "./web-backend";

/** The fetch tool's id. */
export const WEB_FETCH_TOOL_ID = "web/fetch";

/** The fetch tool's description. */
export const WEB_FETCH_DESCRIPTION = "Fetch a web page and return its readable text.";

/** The fetch tool's parameter schema: one required string, `url`. */
export const WEB_FETCH_PARAMETERS = {
  type: "object",
  properties: {
    url: { type: "string", description: "The http or https URL of the page to fetch." },
  },
  required: ["url"],
} satisfies JsonObject;

/**
 * `web/fetch` over `backend`: checks the url argument (missing or empty →
 * `web_fetch: missing url argument`) and answers the page text the backend reads, untrusted.
 */
export function createFetchTool(backend: WebBackend): ToolDefinition {
  return defineTool({
    id: WEB_FETCH_TOOL_ID,
    description: WEB_FETCH_DESCRIPTION,
    parameters: WEB_FETCH_PARAMETERS,
    output: "plain",
    trust: "untrusted",
    async run(args, ctx) {
      return backend.fetchPage(urlArgument(args), ctx.signal);
    },
  });
}

function urlArgument(args: JsonObject): string {
  const url = args.url;
  if (url === undefined || url === null || url === "") throw new ToolFailure(MISSING_URL_MESSAGE);
  if (typeof url !== "string") throw new ToolFailure(URL_NOT_STRING_MESSAGE);
  return url;
}
