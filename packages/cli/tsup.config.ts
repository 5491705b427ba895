import { defineConfig } from "tsup";

/**
 * The library, the bin and the worker thread's script (dist/worker.js: src/worker/loader.ts, which
 * loads the worker bundle that tsup.worker.config.ts builds afterwards).
 */
export default defineConfig({
  entry: { index: "src/index.ts", bin: "src/bin.ts", worker: "src/worker/loader.ts" },
  format: ["esm"],
  dts: { entry: "src/index.ts" },
  clean: true,
  sourcemap: true,
  target: "node20",
});
