import { describe, expect, it } from "vitest";
import * as web from "./index";

describe("the package entry point", () => {
  it("exports exactly the public API", () => {
    expect(Object.keys(web).sort()).toEqual([
      "BRAVE_SEARCH_ENDPOINT",
      "DEFAULT_FETCH_MAX_BYTES",
      "DEFAULT_FETCH_MAX_REDIRECTS",
      "DEFAULT_FETCH_TIMEOUT_MS",
      "DEFAULT_SEARCH_TIMEOUT_MS",
      "DEFAULT_USER_AGENT",
      "braveSearchPlugin",
      "createBraveSearchProvider",
      "createHttpBackend",
      "createSearxngSearchProvider",
      "createWebPack",
      "default",
      "searxngSearchPlugin",
      "webPlugin",
    ]);
  });
});
