import { defineConfig, type Plugin } from "vitest/config";

/**
 * Imports a `.lua` file as its text, as tsup's esbuild loader `{ ".lua": "text" }` does in the
 * build (docs/design/lua-files.md).
 */
const luaText: Plugin = {
  name: "runvil-lua-text",
  enforce: "pre",
  transform(code, id) {
    if (!id.endsWith(".lua")) return null;
    return { code: `export default ${JSON.stringify(code)};`, map: null };
  },
};

export default defineConfig({
  plugins: [luaText],
  test: {
    include: ["src/**/*.test.ts"],
    // Robustness tests (huge inputs, many VMs) can run long on a loaded 2-core CI machine;
    // time is never what a test checks (benchmarks measure it).
    testTimeout: 60_000,
    hookTimeout: 60_000,
    benchmark: { include: ["bench/**/*.bench.ts"] },
  },
});
