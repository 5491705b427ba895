export { chunkNameForLine } from "./chunk-name";
export type { CompileResult } from "./compile";
export {
  formatCompileError,
  LuaCompileError,
  type LuaCompileErrorInit,
} from "./compile-error";
export {
  type BlockLocator,
  type MappedPosition,
  type MappedText,
  mapChunkMarkers,
} from "./error-location/map-markers";
export { formatUncaughtRuntimeError } from "./error-location/runtime-error";
export {
  argumentError,
  EngineError,
  type EngineErrorOptions,
  ERROR_KINDS,
  ERRORS_CHUNK_NAME,
  ERRORS_PRIVATE_FIELD,
  type ErrorFields,
  type ErrorKind,
  installErrors,
  isErrorKind,
  quotaError,
  RUNTIME_ERROR_PREFIX,
  runtimeError,
  runtimeErrorMessage,
  type UncaughtError,
  uncaughtError,
} from "./errors/index";
export {
  ABSENT_LUA_NAMES,
  CONDITIONAL_ENGINE_GLOBALS,
  ENGINE_GLOBALS,
  GLOBAL_GUARD_PRIVATE_KEY,
  GLOBALS_CHUNK_NAME,
  type GlobalGuard,
  type GlobalGuardOptions,
  GUARD_SERVED_GLOBALS,
  installGlobalGuard,
  isReservedName,
  LUA_KEYWORDS,
  PROTECTED_METATABLE_MESSAGE,
  RESERVED_NAMES,
  type ReservedName,
  type ReservedNameClass,
  readOnlyGlobalMessage,
  reservedNameClass,
  type ServedGlobal,
  WEAK_GLOBALS_MESSAGE,
} from "./globals/index";
export { installIteration } from "./iteration/index";
export {
  decodeJsonLinesValue,
  decodeJsonValue,
  encodeJsonLinesValue,
  encodeJsonValue,
  JsonDecodeError,
  JsonEncodeError,
  type JsonObject,
  type JsonValue,
} from "./json/index";
export {
  ensureJsonPrivateValues,
  ensureSealedTargets,
  installJson,
  JSON_LIST_MARKER_FIELD,
  JSON_NULL_FIELD,
  SEALED_TARGETS_FIELD,
} from "./json-lua/index";
export { ensureUserdataFactory, NEW_USERDATA_FIELD } from "./objects/index";
export {
  installPreludes,
  PRELUDE_LOAD_RULE,
  PRELUDE_VAR_METATABLE_TEXT,
  type PreludeChunk,
  type PreludeInstallOptions,
  type PreludeInstallOutcome,
  preludeChunkName,
  preludeCollisionMessage,
  preludeKeyTypeMessage,
  preludeLoadFailureMessage,
  preludeNameNotUtf8Message,
  preludeReadOnlyMessage,
  preludeReservedNameMessage,
  preludeSealedText,
  preludeVarReadOnlyMessage,
} from "./preludes/index";
export { type LuaRuntime, loadLuaRuntime } from "./runtime";
export {
  checkpointText,
  DEFAULT_LOG_EVENTS,
  formatSysWhen,
  installLog,
  installSys,
  installUi,
  installVar,
  LOG_ARGUMENT_COUNT_MESSAGE,
  LOG_BYTE_QUOTA_MESSAGE,
  LOG_BYTES_PER_EVENT,
  LOG_CONTROL_MESSAGE,
  LOG_EVENT_QUOTA_MESSAGE,
  LOG_MAX_CHARACTERS,
  LOG_NOT_UTF8_MESSAGE,
  LOG_TOO_LONG_MESSAGE,
  type LogCheckpoint,
  type LogHandle,
  type LogOptions,
  logByteQuota,
  readBackVar,
  SYS_METATABLE_TEXT,
  SYS_STRING_KEY_MESSAGE,
  type SysFacts,
  type SysHandle,
  sysReadOnlyMessage,
  unknownSysFieldMessage,
  VAR_METATABLE_TEXT,
  VAR_PRIVATE_FIELD,
  VAR_REASSIGNED_MESSAGE,
  VAR_STRING_KEY_MESSAGE,
  type VarOptions,
  varMustBeJsonDataMessage,
  varTooLargeMessage,
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
