/** Pack preludes: installing the Lua globals a declared Pack's prelude defines (tools.txt "Pack preludes"). */
export {
  installPreludes,
  type PreludeChunk,
  type PreludeInstallOptions,
  type PreludeInstallOutcome,
} from "./install";
export {
  PRELUDE_LOAD_RULE,
  PRELUDE_VAR_METATABLE_TEXT,
  preludeChunkName,
  preludeCollisionMessage,
  preludeKeyTypeMessage,
  preludeLoadFailureMessage,
  preludeNameNotUtf8Message,
  preludeReadOnlyMessage,
  preludeReservedNameMessage,
  preludeSealedText,
  preludeVarReadOnlyMessage,
} from "./messages";
