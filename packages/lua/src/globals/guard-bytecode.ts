import { Compiler } from "../compile";
import type { LuaModule } from "../module";
import { RawLua } from "../raw-api";
import GLOBALS_LUA from "./globals.lua";
import { GLOBALS_CHUNK_NAME } from "./guard-lua";

const compiled = new WeakMap<LuaModule, Uint8Array>();

/**
 * The bytecode of globals.lua (the Engine guard on `_G`, the served-name API for other Engine
 * Lua and the sandbox's `table.concat`, run once per VM through runPrivileged with
 * `(P, refuse)`), compiled once per wasm module (so once per process) and reused by every VM:
 * loading bytecode is several times cheaper than parsing the source again.
 */
export function globalsBytecode(module: LuaModule): Uint8Array {
  let bytecode = compiled.get(module);
  if (bytecode === undefined) {
    const result = new Compiler(new RawLua(module)).compile(GLOBALS_LUA, GLOBALS_CHUNK_NAME);
    if (!result.ok) throw new Error(`runvil/globals.lua does not compile: ${result.diagnostic}`);
    bytecode = result.bytecode;
    compiled.set(module, bytecode);
  }
  return bytecode;
}
