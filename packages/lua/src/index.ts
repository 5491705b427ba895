export { chunkNameForLine } from "./chunk-name";
export type { CompileResult } from "./compile";
export {
  formatCompileError,
  LuaCompileError,
  type LuaCompileErrorInit,
} from "./compile-error";
export type { BlockLocator } from "./error-location/map-markers";
export {
  argumentError,
  EngineError,
  type EngineErrorOptions,
  type ErrorFields,
  type ErrorKind,
  installErrors,
  isErrorKind,
  quotaError,
  type UncaughtError,
  uncaughtError,
} from "./errors/index";
export {
  type GlobalGuard,
  type GlobalGuardOptions,
  installGlobalGuard,
  type ServedGlobal,
} from "./globals/index";
export { installIteration } from "./iteration/index";
export {
  decodeJsonValue,
  encodeJsonValue,
  JsonDecodeError,
  type JsonDecodeLimits,
  JsonEncodeError,
  type JsonEncodeValueOptions,
  type JsonObject,
  type JsonValue,
} from "./json/index";
export { ensureSealedTargets, installJson } from "./json-lua/index";
export { ensureUserdataFactory, NEW_USERDATA_FIELD } from "./objects/index";
export {
  type PrecompiledLuaLoad,
  precompiledLuaFile,
  providePrecompiledLua,
} from "./precompiled/precompiled-lua";
export {
  installPreludes,
  type PreludeChunk,
  type PreludeInstallOptions,
  type PreludeInstallOutcome,
  preludeChunkName,
} from "./preludes/index";
export { type LuaRuntime, loadLuaRuntime } from "./runtime";
export {
  formatSysWhen,
  installLog,
  installSys,
  installUi,
  installVar,
  type LogCheckpoint,
  type LogHandle,
  type LogOptions,
  readBackVar,
  type SysFacts,
  type SysHandle,
  type VarOptions,
} from "./state/index";
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
export { KEPT_LUA_GLOBALS } from "./vm/sandbox";
export {
  HostError,
  type HostFunction,
  type HostResult,
  LuaOpaque,
  type LuaRecord,
  type LuaTypeName,
  type LuaValue,
} from "./vm/values";
