import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts"],
    // Runs through the real Engine can be slow on a loaded 2-core machine; time is never what a
    // test checks (benchmarks measure it).
    testTimeout: 60_000,
    hookTimeout: 60_000,
    benchmark: { include: ["bench/**/*.bench.ts"] },
  },
});
