import { defineConfig } from "tsup";

/** The entry points (the library and ./testing, the test server helpers); the pg client stays external (it loads at the first pool or client opened). */
export default defineConfig({
  entry: { index: "src/index.ts", testing: "src/testing/index.ts" },
  format: ["esm"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "node20",
  external: ["pg"],
});
