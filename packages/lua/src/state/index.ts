/**
 * The state area of the Lua environment: the `var`, `sys`, `ui` and `log` Engine globals
 * ("Keeping state in var", "Run facts in sys and ui", "Logging and lifecycle reports").
 */

export {
  checkpointText,
  DEFAULT_LOG_EVENTS,
  installLog,
  LOG_BYTES_PER_EVENT,
  type LogCheckpoint,
  type LogHandle,
  type LogOptions,
  logByteQuota,
} from "./log";
export { LOG_MAX_CHARACTERS } from "./log-message";
export {
  LOG_ARGUMENT_COUNT_MESSAGE,
  LOG_BYTE_QUOTA_MESSAGE,
  LOG_CONTROL_MESSAGE,
  LOG_EVENT_QUOTA_MESSAGE,
  LOG_NOT_UTF8_MESSAGE,
  LOG_TOO_LONG_MESSAGE,
  SYS_METATABLE_TEXT,
  SYS_STRING_KEY_MESSAGE,
  sysReadOnlyMessage,
  unknownSysFieldMessage,
  VAR_METATABLE_TEXT,
  VAR_REASSIGNED_MESSAGE,
  VAR_STRING_KEY_MESSAGE,
  varMustBeJsonDataMessage,
  varTooLargeMessage,
} from "./messages";
export { installSys, type SysFacts, type SysHandle } from "./sys";
export { formatSysWhen } from "./sys-when";
export { installUi } from "./ui";
export { installVar, type VarOptions } from "./var";
export { VAR_PRIVATE_FIELD } from "./var-context";
export { readBackVar } from "./var-read-back";
