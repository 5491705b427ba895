import { defineConfig } from "tsup";

/** The entry point; the pg client stays external (it loads at the first open of a store database). */
export default defineConfig({
  entry: { index: "src/index.ts" },
  format: ["esm"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "node20",
  external: ["pg"],
});
