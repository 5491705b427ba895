import { defineConfig } from "tsup";

/**
 * The library, the bin, the run's worker thread script (dist/worker.js: src/worker/loader.ts, which
 * loads the worker bundle that tsup.worker.config.ts builds afterwards) and the script of
 * `runvil test`'s case threads (dist/test-worker.js: src/test-pool/case-thread.ts).
 */
export default defineConfig({
  entry: {
    index: "src/index.ts",
    bin: "src/bin.ts",
    worker: "src/worker/loader.ts",
    "test-worker": "src/test-pool/case-thread.ts",
  },
  format: ["esm"],
  dts: { entry: "src/index.ts" },
  clean: true,
  sourcemap: true,
  target: "node20",
});
