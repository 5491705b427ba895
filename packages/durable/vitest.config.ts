import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts"],
    // The crash tests start and kill worker processes on PostgreSQL and can run long on a loaded
    // 2-core machine beside other suites; time is never what a test checks (benchmarks measure it).
    testTimeout: 400_000,
    hookTimeout: 60_000,
    benchmark: { include: ["bench/**/*.bench.ts"] },
  },
});
