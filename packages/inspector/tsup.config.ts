import { defineConfig } from "tsup";

/**
 * The server (dist/index.js), the browser-test helpers (dist/testing.js: Chromium through
 * playwright-core, PNG checks; optional peers) and the page's script (dist/page.js, one browser bundle the server
 * reads once and serves at /page.js). The test suite runs after the build (turbo.json), so the
 * server finds dist/page.js from src/ as from dist/.
 */
export default defineConfig([
  {
    entry: { index: "src/index.ts", testing: "src/testing/index.ts" },
    format: ["esm"],
    dts: true,
    clean: false,
    sourcemap: true,
    target: "node20",
    external: ["@runvil/journal", "playwright-core", "fast-png"],
  },
  {
    entry: { page: "src/page/main.ts" },
    format: ["iife"],
    platform: "browser",
    target: "es2022",
    outExtension: () => ({ js: ".js" }),
    minify: false,
    sourcemap: false,
  },
]);
