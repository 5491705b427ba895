import { defineConfig } from "tsup";

/**
 * The entry point and `@runvil/harness/testing` (the RunStore contract suite for vitest; vitest
 * is an optional peer dependency, kept external), and `@runvil/harness/store-kit` (what another
 * store backend reuses to answer like these).
 */
export default defineConfig({
  entry: {
    index: "src/index.ts",
    testing: "src/testing/index.ts",
    "store-kit": "src/store-kit/index.ts",
  },
  format: ["esm"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "node20",
  external: ["vitest"],
});
