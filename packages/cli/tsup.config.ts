import { defineConfig } from "tsup";

/**
 * The library, the bin and the script of `runvil test`'s case threads (dist/test-worker.js:
 * src/test-pool/case-thread.ts). The run's worker thread script and its bundle are built by
 * tsup.worker.config.ts.
 */
export default defineConfig({
  entry: {
    index: "src/index.ts",
    bin: "src/bin.ts",
    "test-worker": "src/test-pool/case-thread.ts",
  },
  format: ["esm"],
  dts: { entry: "src/index.ts" },
  clean: true,
  sourcemap: true,
  target: "node20",
});
