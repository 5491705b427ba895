import { EngineError } from "../engine-error";
import type { LuaState } from "../module";
import { UPVALUE_1 } from "./constants";
import { pushErrorValue } from "./error-values";
import { ActiveHostCall } from "./host-call";
import { pushValue } from "./marshal";
import { HostError, type HostResult, type LuaValue } from "./values";
import type { VmState } from "./vm-state";

/** The message Lua itself gives when a C function yields where it cannot. */
export const YIELD_ACROSS_C_MESSAGE = "attempt to yield across a C-call boundary";

/**
 * The body of the shared lua_CFunction: finds the host function from the closure's upvalue and
 * calls it. Its results are pushed and returned; a returned Promise suspends the thread with
 * `lua_yieldk` (the continuation pushes the settled results later); a thrown exception is raised
 * as a Lua error with `lua_error`. Lua's own unwinding (see UnwindProbe) passes through
 * untouched; no other JS exception ever leaves this function.
 */
export function dispatchHostCall(state: VmState, L: LuaState): number {
  const { kernel } = state;
  kernel.clearUnwinding();
  const entry = state.functions.get(kernel.x.lua_touserdata(L, UPVALUE_1));
  if (entry === undefined) {
    return raiseHostError(state, L, new EngineError("internal", "unknown host function"));
  }
  if (entry.kind === "raw") return callRaw(state, L, entry.fn);
  const call = new ActiveHostCall(state, L, entry.name);
  let result: HostResult | Promise<HostResult>;
  try {
    result = entry.fn(call);
  } catch (error) {
    if (kernel.isUnwinding(error)) throw error; // Lua unwinding through the host function
    call.end();
    return raiseHostError(state, L, error);
  }
  call.end();
  // Outside any try: lua_yieldk and lua_error unwind by throwing, and a JS frame that catches
  // and rethrows on the way costs as much as the unwinding itself.
  if (result instanceof Promise) return suspendHostCall(state, L, result, entry.name);
  return pushResultsOrRaise(state, L, result, entry.name);
}

/** Calls one of the package's raw builtins, raising any JS exception it throws. */
function callRaw(state: VmState, L: LuaState, fn: (L: LuaState) => number): number {
  let failure: unknown;
  try {
    return fn(L);
  } catch (error) {
    if (state.kernel.isUnwinding(error)) throw error;
    failure = error;
  }
  return raiseHostError(state, L, failure);
}

/**
 * Pushes results, raising a Lua error for results that cannot cross (an Engine fault: kind
 * `internal` where the VM has error values).
 */
function pushResultsOrRaise(state: VmState, L: LuaState, result: HostResult, name: string): number {
  let failure: unknown;
  try {
    return pushResults(state, L, result, name);
  } catch (error) {
    if (state.kernel.isUnwinding(error)) throw error;
    failure = error;
  }
  return raiseHostError(state, L, new EngineError("internal", describe(failure)));
}

/**
 * The body of the shared lua_KFunction: the thread was resumed after its host call's Promise
 * settled; pushes the results, or raises the rejection.
 */
export function continueHostCall(state: VmState, L: LuaState): number {
  state.kernel.clearUnwinding();
  const record = state.threads.get(L);
  const settled = record?.settled;
  if (record === undefined || settled === undefined) {
    return raiseHostError(
      state,
      L,
      new EngineError("internal", "a suspended host call resumed without a result"),
    );
  }
  record.settled = undefined;
  if (!settled.ok) return raiseHostError(state, L, settled.error);
  return pushResultsOrRaise(state, L, settled.result, record.pendingName);
}

/** Suspends thread `L` on `promise` (lua_yieldk never returns: it unwinds to lua_resume). */
function suspendHostCall(
  state: VmState,
  L: LuaState,
  promise: Promise<HostResult>,
  name: string,
): number {
  const { x } = state.kernel;
  const record = state.threads.get(L);
  if (record === undefined || x.lua_isyieldable(L) === 0) {
    promise.then(undefined, () => undefined); // its outcome is dropped; never unhandled
    return raiseHostError(state, L, new Error(YIELD_ACROSS_C_MESSAGE));
  }
  record.pending = promise;
  record.pendingName = name;
  return x.lua_yieldk(L, 0, 0, state.kernel.continuation);
}

/** Pushes a host function's results and returns their count. */
function pushResults(state: VmState, L: LuaState, result: HostResult, name: string): number {
  if (result === undefined) return 0;
  if (!Array.isArray(result)) {
    throw new TypeError(`host function '${name}' must return an array of results or nothing`);
  }
  const values: readonly LuaValue[] = result;
  if (values.length > 0 && state.kernel.x.lua_checkstack(L, values.length) === 0) {
    throw new RangeError(`host function '${name}' returned too many results`);
  }
  for (const value of values) pushValue(state, L, value, `${name} result`);
  return values.length;
}

/**
 * Raises `error` in Lua at level 0 (no position prefix). A HostError raises its value as is.
 * Where the VM has error values (installErrors ran), an EngineError is raised as the error value
 * it describes, and any other exception as a `lua` error value carrying its text. Otherwise an
 * Error raises its message, anything else its text. Never returns.
 */
export function raiseHostError(state: VmState, L: LuaState, error: unknown): never {
  const { x } = state.kernel;
  if (!(error instanceof HostError)) {
    const engineError =
      error instanceof EngineError ? error : new EngineError("lua", describe(error));
    if (pushErrorValue(state, L, engineError, state.account)) {
      x.lua_error(L);
      throw new Error("lua_error returned");
    }
  }
  let value: LuaValue;
  if (error instanceof HostError) value = error.value;
  else if (error instanceof Error) value = error.message;
  else value = describe(error);
  try {
    pushValue(state, L, value, "error");
  } catch (pushError) {
    if (state.kernel.isUnwinding(pushError)) throw pushError;
    state.kernel.pushText(L, `the error value cannot be pushed: ${describe(pushError)}`);
  }
  x.lua_error(L);
  throw new Error("lua_error returned");
}

/** A thrown value's text, even when its toString throws. */
function describe(value: unknown): string {
  if (value instanceof Error) return value.message;
  try {
    return String(value);
  } catch {
    return "(a value that cannot be shown)";
  }
}
