import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts"],
    // A headless Chromium on a loaded 2-core machine can take seconds to start; time is never
    // what a test checks.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    benchmark: { include: ["bench/**/*.bench.ts"] },
  },
});
