import { defineConfig } from "tsup";

export default defineConfig({
  entry: ["src/index.ts"],
  format: ["esm"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "node20",
  // The Engine's own Lua lives in .lua files, bundled as their text (docs/design/lua-files.md).
  loader: { ".lua": "text" },
});
