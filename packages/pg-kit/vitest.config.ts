import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts"],
    // Robustness tests (huge inputs, many VMs) can run long on a loaded 2-core CI machine;
    // time is never what a test checks (benchmarks measure it).
    testTimeout: 60_000,
    hookTimeout: 60_000,
    benchmark: { include: ["bench/**/*.bench.ts"] },
  },
});
