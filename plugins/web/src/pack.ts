import { definePack, type PackDefinition, SEARCH_PROVIDER } from "@runvil/sdk";
import { createFetchTool } from "./fetch-tool";
import { createHttpBackend } from "./http/http-backend";
import { searchTool } from "./search-tool";
import type { WebBackend } from "./web-backend";

/** The web Pack's description (the chapter's). */
export const WEB_PACK_DESCRIPTION = "Search the web and fetch pages";

/**
 * Builds runvil/web: the tools web/fetch and web/search (both untrusted). It needs the
 * `runvil/search-provider` service, so a run without one cannot use it. web/fetch reads pages
 * through `backend.fetchPage`, or through real HTTP with the default limits when `backend` gives
 * none (use `createHttpBackend(options)` for other limits).
 */
export function createWebPack(backend?: Partial<WebBackend>): PackDefinition {
  const pages = resolveBackend(backend);
  return definePack({
    vendor: "runvil",
    name: "web",
    description: WEB_PACK_DESCRIPTION,
    services: [SEARCH_PROVIDER],
    tools: [createFetchTool(pages), searchTool],
  });
}

function resolveBackend(backend: Partial<WebBackend> | undefined): WebBackend {
  if (backend?.fetchPage === undefined) return createHttpBackend();
  return { fetchPage: (url, signal) => backend.fetchPage!(url, signal) };
}
