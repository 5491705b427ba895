import { defineConfig } from "tsup";

/** One entry point; `@opentelemetry/api` stays external (the application's copy is the one its SDK registers with). */
export default defineConfig({
  entry: { index: "src/index.ts" },
  format: ["esm"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "node20",
  external: ["@opentelemetry/api"],
});
