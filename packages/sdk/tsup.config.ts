import { defineConfig } from "tsup";

/** The entry point and the `@runvil/sdk/testing` subpath (test doubles for Pack authors). */
export default defineConfig({
  entry: { index: "src/index.ts", testing: "src/testing/index.ts" },
  format: ["esm"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "node20",
});
