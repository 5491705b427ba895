import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { defineConfig } from "tsup";
import ts from "typescript";
import { BUNDLE_IMPORT_PARAMETER, WARM_UP_WORKER_DATA } from "./src/worker/code-cache";

/**
 * The run's worker thread script (dist/worker.cjs: src/worker/loader.ts, CommonJS so that the
 * worker starts no ES module loader) and its bundle (dist/worker-bundle.cjs): src/worker/bundle.ts
 * with everything it loads — the Engine, the Lua runtime, the parser, the Host, the Harness and
 * the official plugins (the `@ai-sdk/*` packages excepted) — in one CommonJS file, which
 * dist/worker.cjs compiles through V8's code cache (docs/design/performance.md, docs/design/cli.md "Cold
 * start"). After the build:
 * - wasmoon's glue.wasm is copied beside the bundle (wasmoon looks for it there);
 * - every dynamic `import(...)` left in the bundle (found by TypeScript's parser) becomes a call
 *   of the loader's import function {@link BUNDLE_IMPORT_PARAMETER};
 * - the bundle is checked to be ASCII (the loader reads it as latin1);
 * - a worker runs the warm-up prompt and writes the code cache dist/worker-bundle.cjs.cache.
 */
const BUNDLE = "dist/worker-bundle.cjs";

/**
 * The start offsets of the bundle's dynamic `import(...)` calls, found by TypeScript's parser
 * (so an `import(` inside a string or a comment is not one).
 */
function dynamicImportOffsets(source: string): number[] {
  const file = ts.createSourceFile(BUNDLE, source, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
  const offsets: number[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      offsets.push(node.expression.getStart(file));
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return offsets;
}

function rewriteDynamicImports(): void {
  let source = readFileSync(BUNDLE, "utf8");
  if (source.includes(BUNDLE_IMPORT_PARAMETER)) {
    throw new Error(`${BUNDLE} already uses the name ${BUNDLE_IMPORT_PARAMETER}`);
  }
  for (const offset of dynamicImportOffsets(source).reverse()) {
    if (source.slice(offset, offset + 6) !== "import") {
      throw new Error(`${BUNDLE}: no import keyword at offset ${offset}`);
    }
    source = `${source.slice(0, offset)}${BUNDLE_IMPORT_PARAMETER}${source.slice(offset + 6)}`;
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the check is for bytes past ASCII
  const nonAscii = /[^\x00-\x7f]/.exec(source);
  if (nonAscii !== null) {
    throw new Error(
      `${BUNDLE} is not ASCII at offset ${nonAscii.index} (the loader reads it as latin1)`,
    );
  }
  writeFileSync(BUNDLE, source);
}

function writeCodeCache(): Promise<void> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL("./dist/worker.cjs", import.meta.url), {
      workerData: WARM_UP_WORKER_DATA,
    });
    worker.on("error", reject);
    worker.on("exit", (code) => {
      if (code === 0) resolve();
      else reject(new Error(`the warm-up worker exited with code ${code}`));
    });
  });
}

export default defineConfig({
  entry: { "worker-bundle": "src/worker/bundle.ts", worker: "src/worker/loader.ts" },
  format: ["cjs"],
  outExtension: () => ({ js: ".cjs" }),
  outDir: "dist",
  clean: false,
  sourcemap: true,
  target: "node20",
  platform: "node",
  splitting: false,
  // Everything but the journal's database clients (better-sqlite3, native, and pg), which the
  // journal requires only when it opens a journal, from this package's own dependencies: the
  // journal itself is bundled (esbuild wraps the dynamically imported module in a lazy
  // initializer, so a run that does not record runs none of it), sharing the bundle's protocol
  // and SDK and its code cache; as a separate ES module package it cost ~25-60 ms per recorded
  // run (docs/design/performance.md); the AI SDK
  // provider packages, which stay in node_modules and load at a configured provider's first use
  // (the worker's import function resolves them from dist/), so a run without a model provider
  // reads no more bundle than before (providers.md §7); and tracing (`--otel`), which loads
  // @runvil/otel and the OpenTelemetry SDK only when asked.
  noExternal: [/^(?!better-sqlite3$|pg$|@runvil\/otel$|@opentelemetry\/|@ai-sdk\/)/],
  external: ["better-sqlite3", "pg", "@runvil/otel", /^@opentelemetry\//],
  // The Engine's own Lua as text (docs/design/lua-files.md): @runvil/lua and @runvil/engine come
  // in built, their .lua files already inlined, so this covers any other bundled source.
  loader: { ".lua": "text" },
  shims: true,
  // Comments and layout dropped: a third smaller, less to read and hash (identifiers are kept).
  minifyWhitespace: true,
  minifySyntax: true,
  onSuccess: async () => {
    const fromLua = createRequire(fileURLToPath(import.meta.resolve("@runvil/lua")));
    const wasm = join(dirname(fromLua.resolve("wasmoon")), "glue.wasm");
    copyFileSync(wasm, "dist/glue.wasm");
    rewriteDynamicImports();
    await writeCodeCache();
  },
});
