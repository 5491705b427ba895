import { copyFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "tsup";

/**
 * The run's worker thread (dist/worker.js) is bundled with everything it loads — the Engine,
 * the Lua runtime, the parser, the Host, the Harness and the official plugins — into one file:
 * loading one file instead of several hundred modules saves about a third of `runvil run`'s
 * cold start (docs/design/cli.md "Cold start"). wasmoon looks for its glue.wasm beside the
 * script that loads it, so the file is copied next to the bundle.
 */
export default defineConfig({
  entry: { worker: "src/worker.ts" },
  format: ["esm"],
  outDir: "dist",
  clean: false,
  sourcemap: true,
  target: "node20",
  platform: "node",
  splitting: false,
  noExternal: [/.*/],
  shims: true,
  banner: {
    js: "import { createRequire as __runvilCreateRequire } from 'node:module'; const require = __runvilCreateRequire(import.meta.url);",
  },
  onSuccess: async () => {
    const fromLua = createRequire(fileURLToPath(import.meta.resolve("@runvil/lua")));
    const wasm = join(dirname(fromLua.resolve("wasmoon")), "glue.wasm");
    copyFileSync(wasm, "dist/glue.wasm");
  },
});
