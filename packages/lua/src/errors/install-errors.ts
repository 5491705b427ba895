import { engineCompiler } from "../compile";
import { ERRORS_PRIVATE_FIELD } from "../vm/error-values";
import { type LuaVm, VmHandle } from "../vm/lua-vm";
import type { HostFunction } from "../vm/values";
import ERROR_VALUES_LUA from "./error-values.lua";
import ERRORS_LUA from "./errors.lua";
import { ERROR_KINDS_TEXT, ERROR_VALUES_CHUNK_NAME, ERRORS_CHUNK_NAME } from "./errors-lua";

/** Whether the VM that calls is being cancelled (the pcall and xpcall wrappers ask on failure). */
const isCancelled: HostFunction = (call) => [call.vm.cancelled];

/** The bytecode of errors.lua and error-values.lua, made by the first install in the process. */
let compiled: { readonly main: Uint8Array; readonly helpers: Uint8Array } | undefined;

/**
 * Compiles `source` as the chunk `name` on `vm`'s wasm module (debug information kept, so its
 * frames read `runvil/errors.lua:{line}:` and `runvil/error-values.lua:{line}:`; taken from the
 * precompiled Lua when a build provided it) and returns the bytecode.
 */
function compileFor(vm: LuaVm, source: string, name: string): Uint8Array {
  const result = engineCompiler(VmHandle.stateOf(vm).kernel.module).compile(source, name);
  if (!result.ok) throw new Error(`the errors Lua did not compile: ${result.diagnostic}`);
  return result.bytecode;
}

/**
 * Installs error values into a fresh VM. Run it first, before the other Engine installers (they
 * may use the `errors` helpers of the private table). Costs a few microseconds: the metatable and
 * the helpers are built on first use, which most VMs never reach.
 *
 * - `pcall` and `xpcall` become the Engine's: the same results as Lua's own (a raised value comes
 *   back unchanged), except that while the VM is cancelled a caught failure is raised again and
 *   xpcall's handler does not run. A handler that is not a function gets Lua's own argument error.
 * - From then on an `EngineError` thrown or rejected by any host function of the VM (also after
 *   it suspended), or returned among its results, becomes an error value: a table with `kind`,
 *   `message` and the kind's fields, sharing the VM's one protected metatable (`tostring` gives
 *   the message, `..` joins it on either side), raised at level 0. Any other exception from a
 *   host function becomes a `lua` error value with its text (`internal` for the VM's own faults).
 * - The private table's field `errors` holds helpers for Engine Lua (see the README).
 *
 * Throws if the VM is closed or Lua runs on it.
 */
export function installErrors(vm: LuaVm): void {
  compiled ??= {
    main: compileFor(vm, ERRORS_LUA, ERRORS_CHUNK_NAME),
    helpers: compileFor(vm, ERROR_VALUES_LUA, ERROR_VALUES_CHUNK_NAME),
  };
  const outcome = vm.runPrivileged({
    bytecode: compiled.main,
    chunkName: ERRORS_CHUNK_NAME,
    args: [isCancelled, compiled.helpers, ERRORS_PRIVATE_FIELD, ERROR_KINDS_TEXT],
  });
  if (!outcome.ok) throw new Error(`installErrors failed: ${outcome.message}`);
}
