export { chunkNameForLine } from "./chunk-name";
export type { CompileResult } from "./compile";
export {
  formatCompileError,
  LuaCompileError,
  type LuaCompileErrorInit,
} from "./compile-error";
export { type LuaRuntime, loadLuaRuntime } from "./runtime";
export { CANCELLED_MESSAGE } from "./vm/cancel";
export { YIELD_ACROSS_C_MESSAGE } from "./vm/dispatcher";
export { type LuaVmFactory, loadLuaVmFactory } from "./vm/factory";
export type { HostCall } from "./vm/host-call";
export type { LuaVm, LuaVmOptions } from "./vm/lua-vm";
export { DEFAULT_LUA_MEMORY_BYTES, MAX_LUA_MEMORY_BYTES } from "./vm/open-state";
export type {
  BlockChunk,
  BlockFailure,
  BlockFailureReason,
  BlockOutcome,
  BlockSuccess,
} from "./vm/outcome";
export { LuaPanicError } from "./vm/panic";
export { KEPT_LUA_GLOBALS, PRIVATE_REGISTRY_KEY, REMOVED_BASE_GLOBALS } from "./vm/sandbox";
export {
  HostError,
  type HostFunction,
  type HostResult,
  LuaOpaque,
  type LuaRecord,
  type LuaTypeName,
  type LuaValue,
} from "./vm/values";
