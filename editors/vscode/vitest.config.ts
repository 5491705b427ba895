import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts"],
    // The check tests start the real runvil CLI; on a loaded 2-core machine that can be slow.
    testTimeout: 60_000,
  },
});
