export { checkAlias, invalidAliasMessage } from "./alias";
export { checkModelId } from "./model-id";
export {
  checkPackId,
  type FullyQualifiedName,
  parseFullyQualifiedName,
  RUNVIL_VENDOR,
} from "./pack-id";
export {
  ALIAS_GRAMMAR,
  MODEL_ID_GRAMMAR,
  REASON_ALIAS,
  REASON_BAD_CHARACTER,
  REASON_CONTROL_CHARACTER,
  REASON_EMPTY_SEGMENT,
  REASON_FULLY_QUALIFIED_NAME_SEGMENTS,
  REASON_MODEL_ID,
  REASON_PACK_ID_SEGMENTS,
  REASON_TOOL_ID_SEGMENTS,
  REASON_USES_ENTRY_SEGMENTS,
  USES_ENTRY_NOT_STRING,
} from "./reasons";
export type { NameResult } from "./result";
export { parseName } from "./segments";
export { isTaskBuiltinName, TASK_BUILTIN_NAMES, type TaskBuiltinName } from "./task-builtins";
export { parseToolId, type ToolId } from "./tool-id";
export { invalidUsesEntryMessage, parseUsesEntry, type UsesEntry } from "./uses-entry";
export { findRepeatedPackId, repeatedPackIdMessage } from "./uses-list";
export { isOfferableWireName, toWireName } from "./wire-name";
