import { defineConfig } from "tsup";

/**
 * The entry point and `@runvil/journal/testing` (the journal contract suite for vitest; vitest
 * is an optional peer dependency). The database clients stay external: they load at the first
 * open of a journal of their kind.
 */
export default defineConfig({
  entry: { index: "src/index.ts", testing: "src/testing/index.ts" },
  format: ["esm"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "node20",
  external: ["vitest", "better-sqlite3", "pg"],
});
