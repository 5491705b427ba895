/**
 * Thrown by the kernel's `lua_atpanic` function when Lua raises an error outside any protected
 * call (instead of letting Lua call `abort()`, which would stop the whole wasm module).
 *
 * The VM layer only makes unprotected calls that cannot raise (it lifts the memory limit around
 * them and uses raw table access), so this means the wasm heap itself is exhausted or a bug. The
 * exception unwinds through wasm frames without Lua knowing, so the state it came from is marked
 * broken and refuses further use; the emscripten stack pointer is restored by the caller.
 */
export class LuaPanicError extends Error {
  constructor(message: string) {
    super(`Lua panic (unprotected error): ${message}`);
    this.name = "LuaPanicError";
  }
}
