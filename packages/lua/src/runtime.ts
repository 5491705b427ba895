import { type CompileResult, Compiler } from "./compile";
import { loadLuaModule } from "./module";
import { RawLua } from "./raw-api";
import { warmUpCompiler } from "./warm-up";

/** The process-wide Lua runtime: wasmoon's WebAssembly module plus what this package keeps on it. */
export interface LuaRuntime {
  /**
   * Compiles a Lua block without running it. `chunkName` is the name Lua reports the block under,
   * such as `line 14` (see chunkNameForLine). A string is compiled as its UTF-8 bytes and a
   * Uint8Array as is; binary chunks are refused. Returns the compiler's diagnostic, unchanged, on
   * failure, and on success the block's bytecode (`lua_dump` with debug information kept).
   */
  compile(source: string | Uint8Array, chunkName: string): CompileResult;
}

let runtimePromise: Promise<LuaRuntime> | undefined;

/**
 * Loads the wasm module once per process and warms up the compile path.
 *
 * Memoized: concurrent and later callers get the same promise and the same runtime. A failed load
 * is forgotten, so the next call tries again.
 */
export function loadLuaRuntime(): Promise<LuaRuntime> {
  if (runtimePromise === undefined) {
    const loading = createRuntime();
    runtimePromise = loading;
    loading.catch(() => {
      if (runtimePromise === loading) runtimePromise = undefined;
    });
  }
  return runtimePromise;
}

async function createRuntime(): Promise<LuaRuntime> {
  const compiler = new Compiler(new RawLua(await loadLuaModule()));
  warmUpCompiler(compiler);
  return { compile: (source, chunkName) => compiler.compile(source, chunkName) };
}
