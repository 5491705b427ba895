export { GLOBALS_CHUNK_NAME } from "./guard-lua";
export {
  GLOBAL_GUARD_PRIVATE_KEY,
  type GlobalGuard,
  type GlobalGuardOptions,
  installGlobalGuard,
  type ServedGlobal,
} from "./install";
export {
  FINALIZERS_MESSAGE,
  PROTECTED_METATABLE_MESSAGE,
  readOnlyGlobalMessage,
  WEAK_GLOBALS_MESSAGE,
} from "./messages";
export {
  ABSENT_LUA_NAMES,
  CONDITIONAL_ENGINE_GLOBALS,
  ENGINE_GLOBALS,
  GUARD_SERVED_GLOBALS,
  isReservedName,
  LUA_KEYWORDS,
  RESERVED_NAMES,
  type ReservedName,
  type ReservedNameClass,
  reservedNameClass,
} from "./reserved-names";
