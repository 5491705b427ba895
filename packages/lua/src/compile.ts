import type { LuaModule, LuaState } from "./module";
import {
  isEngineChunkName,
  providedBytecode,
  recordCompiled,
  refuseProvided,
} from "./precompiled/precompiled-lua";
import { fromUtf8, LuaStatus, LuaTypeTag, RawLua, toUtf8 } from "./raw-api";

/** The outcome of compiling one Lua block: its bytecode, or the compiler's diagnostic. */
export type CompileResult = { ok: true; bytecode: Uint8Array } | { ok: false; diagnostic: string };

/** Stack slot of `string.dump` in the scratch state; it stays there for the state's life. */
const DUMP_SLOT = 1;

/** What a failed load leaves when its error object is not a string (never seen from the parser). */
const NON_STRING_DIAGNOSTIC = "(error object is not a string)";

/**
 * Compiles Lua source to bytecode without running it, in one scratch `lua_State` that is created
 * on first use and reused for every compile.
 *
 * The scratch state holds only `string.dump` (kept at stack slot 1); after every compile, failed
 * or not, its stack is back to that one slot. Reusing it is faster than a fresh state per compile
 * (see bench/compile.bench.ts); the functions it compiles become garbage at once and are collected
 * by the state's incremental GC. If a raw call ever throws (a wasm trap), the state is abandoned
 * and a new one is made on the next compile.
 */
export class Compiler {
  private readonly raw: RawLua;
  private scratch: LuaState | undefined;

  constructor(raw: RawLua) {
    this.raw = raw;
  }

  /**
   * Compiles `source` as a text chunk named `chunkName` (binary chunks are refused, so source
   * text can never smuggle in bytecode). A string is compiled as its UTF-8 bytes, a Uint8Array as
   * is. On success the bytecode is `lua_dump`ed with debug information kept (strip = 0).
   *
   * An Engine chunk (a name under `@runvil/`, its source a string) is taken from the precompiled
   * Lua when a file provided it for this very source and this Lua loads it
   * (precompiled/precompiled-lua.ts): the bytes a compile would give, without the compile.
   * Otherwise it is compiled, and noted for the build's precompiled-Lua file.
   */
  compile(source: string | Uint8Array, chunkName: string): CompileResult {
    if (chunkName.includes("\0")) throw new TypeError("a Lua chunk name cannot contain NUL");
    const engine = typeof source === "string" && isEngineChunkName(chunkName);
    if (engine) {
      const bytecode = providedBytecode(chunkName, source);
      if (bytecode !== undefined) {
        if (this.loads(bytecode, chunkName)) return { ok: true, bytecode };
        refuseProvided(chunkName);
      }
    }
    const result = this.compileSource(source, chunkName);
    if (engine && result.ok) recordCompiled(chunkName, source, result.bytecode);
    return result;
  }

  /** Whether this Lua loads `bytecode` as a binary chunk (Lua checks the dump's header and shape). */
  private loads(bytecode: Uint8Array, chunkName: string): boolean {
    const L = this.scratchState();
    let settled = false;
    try {
      const status = this.raw.loadBuffer(L, bytecode, chunkName, "b");
      this.raw.module._lua_settop(L, DUMP_SLOT);
      settled = true;
      return status === LuaStatus.OK;
    } finally {
      if (!settled) this.scratch = undefined;
    }
  }

  private compileSource(source: string | Uint8Array, chunkName: string): CompileResult {
    const bytes = toUtf8(source);
    const L = this.scratchState();
    const { module } = this.raw;
    let settled = false;
    try {
      const status = this.raw.loadBuffer(L, bytes, chunkName, "t");
      if (status !== LuaStatus.OK) {
        const diagnostic = this.raw.toText(L, -1) ?? NON_STRING_DIAGNOSTIC;
        module._lua_settop(L, DUMP_SLOT);
        settled = true;
        return { ok: false, diagnostic };
      }
      // [dump, fn] -> [dump, dump, fn] -> pcall -> [dump, bytes]
      module._lua_pushvalue(L, DUMP_SLOT);
      module._lua_rotate(L, -2, 1);
      const dumpStatus = module._lua_pcallk(L, 1, 1, 0, 0, 0);
      const dumped = this.raw.toBytes(L, -1);
      module._lua_settop(L, DUMP_SLOT);
      settled = true;
      if (dumpStatus !== LuaStatus.OK || dumped === null) {
        const reason = dumped === null ? NON_STRING_DIAGNOSTIC : fromUtf8(dumped);
        throw new Error(`string.dump failed in the compile state: ${reason}`);
      }
      return { ok: true, bytecode: dumped };
    } finally {
      if (!settled) this.scratch = undefined;
    }
  }

  /** Slots in use on the scratch state's stack (1 between compiles); for leak checks. */
  stackDepth(): number {
    return this.raw.module._lua_gettop(this.scratchState());
  }

  private scratchState(): LuaState {
    if (this.scratch === undefined) this.scratch = this.createScratchState();
    return this.scratch;
  }

  /** A bare state (no globals) that holds `string.dump` at {@link DUMP_SLOT}. */
  private createScratchState(): LuaState {
    const { module } = this.raw;
    const L = module._luaL_newstate();
    if (L === 0) throw new RangeError("luaL_newstate failed: out of wasm memory");
    module._luaopen_string(L); // [string]
    this.raw.withCString("dump", (key) => module._lua_getfield(L, -1, key)); // [string, dump]
    module._lua_rotate(L, 1, 1); // [dump, string]
    module._lua_settop(L, DUMP_SLOT); // [dump]
    if (module._lua_type(L, DUMP_SLOT) !== LuaTypeTag.FUNCTION) {
      module._lua_close(L);
      throw new Error("string.dump is missing from wasmoon's string library");
    }
    return L;
  }
}

const moduleCompilers = new WeakMap<LuaModule, Compiler>();

/** The compiler of the Engine's own Lua on `module`: one per module (so one scratch state). */
export function engineCompiler(module: LuaModule): Compiler {
  let compiler = moduleCompilers.get(module);
  if (compiler === undefined) {
    compiler = new Compiler(new RawLua(module));
    moduleCompilers.set(module, compiler);
  }
  return compiler;
}
