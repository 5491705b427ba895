import { defineConfig } from "tsup";

/** The entry point. DBOS and the journal stay external (DBOS loads `pg` and its own schema). */
export default defineConfig({
  entry: { index: "src/index.ts" },
  format: ["esm"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "node20",
  external: ["@dbos-inc/dbos-sdk"],
});
