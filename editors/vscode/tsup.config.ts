import { defineConfig } from "tsup";

/** The extension's one bundle, CommonJS as VS Code loads it; `vscode` is the editor's own module. */
export default defineConfig({
  entry: { extension: "src/extension.ts" },
  format: ["cjs"],
  platform: "node",
  target: "node18",
  clean: true,
  sourcemap: true,
  external: ["vscode"],
});
