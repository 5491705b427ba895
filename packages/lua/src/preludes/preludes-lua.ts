import type { LuaModule } from "../module";
import type { LuaVm } from "../vm/lua-vm";
import { VmHandle } from "../vm/lua-vm";
import type { HostFunction } from "../vm/values";
import PRELUDES_LUA from "./preludes.lua";
import PRELUDES_DRIVER_LUA from "./preludes-driver.lua";

/**
 * The chunk name of the prelude installer, preludes.lua: run once per VM through runPrivileged
 * with `(P, key, chunks, begin, check, refuse_sealed, refuse_var, store_name, traceback_field,
 * var_metatable)` (the file's header says what each is). Its bytecode is stripped of debug
 * information (a third smaller, so faster to load in every VM), and every function of it that
 * prompt or prelude code can reach (the sealed tables' and var view's metamethods, the store's
 * direct functions) ends in a tail call, so no frame of it shows in a traceback.
 */
export const PRELUDES_CHUNK_NAME = "@runvil/preludes.lua";

/**
 * The chunk name of preludes-driver.lua, the block that runs the rest of one VM's install in its
 * own thread, so a prelude's store call can suspend it.
 */
export const PRELUDES_DRIVER_CHUNK_NAME = "@runvil/preludes-driver.lua";

/**
 * The private-table field that holds the traceback C function (`traceback(thread)`: the
 * `stack traceback:` text of a dead coroutine where its error was raised).
 */
export const PRELUDE_TRACEBACK_FIELD = "prelude_traceback";

/**
 * The global the setup leaves the rest of the install under, for the driver block to take (and
 * clear) at once when a prelude's store call must wait. No prompt code runs in between: prelude code runs inside the install, in an
 * environment that cannot reach `_G`.
 */
export const PRELUDE_INSTALL_KEY = "runvil.preludes.install";

/** Both chunks' bytecode, compiled once per wasm module. */
export interface PreludesBytecode {
  readonly setup: Uint8Array;
  readonly driver: Uint8Array;
}

const compiled = new WeakMap<LuaModule, PreludesBytecode>();

/** `source` compiled in `vm` and dumped without debug information. */
function compileStripped(vm: LuaVm, source: string, name: string): Uint8Array {
  let bytes: Uint8Array | null = null;
  const keep: HostFunction = (call) => {
    bytes = call.bytes(1);
  };
  const outcome = vm.runPrivileged({
    source: `local P, source, name, keep = ...
local fn, err = P.load(source, name, 't')
if not fn then P.error(err, 0) end
keep(string.dump(fn, true))`,
    chunkName: "=preludes compile",
    args: [source, name, keep],
  });
  if (!outcome.ok || bytes === null) {
    throw new Error(`${name} does not compile: ${outcome.ok ? "no bytecode" : outcome.message}`);
  }
  return bytes;
}

/**
 * The installer's bytecode, compiled in `vm` the first time and kept for its wasm module (so
 * for the process).
 */
export function preludesBytecode(vm: LuaVm): PreludesBytecode {
  const { module } = VmHandle.stateOf(vm).kernel;
  let bytecode = compiled.get(module);
  if (bytecode === undefined) {
    bytecode = {
      setup: compileStripped(vm, PRELUDES_LUA, PRELUDES_CHUNK_NAME),
      driver: compileStripped(vm, PRELUDES_DRIVER_LUA, PRELUDES_DRIVER_CHUNK_NAME),
    };
    compiled.set(module, bytecode);
  }
  return bytecode;
}
