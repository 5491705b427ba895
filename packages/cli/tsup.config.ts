import { defineConfig } from "tsup";

/** The library and the bin; the worker thread is built by tsup.worker.config.ts afterwards. */
export default defineConfig({
  entry: ["src/index.ts", "src/bin.ts"],
  format: ["esm"],
  dts: { entry: "src/index.ts" },
  clean: true,
  sourcemap: true,
  target: "node20",
});
