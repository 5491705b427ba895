import { defineConfig } from "tsup";

export default defineConfig({
  // `input-file`: reading prompt and scenario files without loading the Host (the CLI's main
  // thread reads the prompt before its worker loads anything).
  entry: { index: "src/index.ts", "input-file": "src/files/read-input-file.ts" },
  format: ["esm"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "node20",
});
