export { applyStoreOperation } from "./effect-port/apply-store-operation";
export { RunPort, type RunPortOptions } from "./effect-port/run-port";
export type { EventSink, RunEventRecord } from "./events/event-record";
export { EventRecorder, type EventRecorderOptions } from "./events/event-recorder";
export {
  eventRecordLine,
  JsonLinesEventSink,
  type JsonLinesEventSinkOptions,
} from "./events/json-lines-event-sink";
export { MemoryEventSink } from "./events/memory-event-sink";
export { parseEventRecords, readEventRecords } from "./events/read-event-records";
export {
  ModelDispatcher,
  type ModelDispatcherOptions,
  type ModelDispatchRequest,
} from "./models/model-dispatcher";
export { type AnchorEdit, countOccurrences, replaceAnchor } from "./store/anchor";
export { compareBytewise, sortBytewise } from "./store/bytewise";
export type { DirectoryStoreFileSystem } from "./store/directory-fs";
export { DirectoryStore, type DirectoryStoreOptions } from "./store/directory-store";
export { DISPLAY_PATH_CHARACTERS, displayPath } from "./store/display";
export { type StoreOperation, storeMessage, type TextArgument } from "./store/failures";
export { compileGlob, type GlobMatcher } from "./store/glob";
export {
  DEFAULT_STORE_LIMITS,
  MAX_PATH_BYTES,
  MAX_PATTERN_BYTES,
  MAX_SEGMENT_BYTES,
  resolveStoreLimits,
  type StoreLimits,
  TEMP_FILE_PREFIX,
} from "./store/limits";
export { MemoryStore, type MemoryStoreOptions } from "./store/memory-store";
export { readAllFiles } from "./store/read-all-files";
export type { StaleTemporaryRule } from "./store/stale-temporaries";
export {
  checkStorePath,
  PATH_DETAILS,
  PATTERN_DETAILS,
  parseStorePath,
  type StorePath,
  type StorePathCheck,
} from "./store/store-path";
export {
  type CheckedText,
  checkUtf8,
  stringValidUpTo,
  type Utf8Check,
  utf8ValidUpTo,
} from "./store/utf8";
export { ToolDispatcher, type ToolDispatcherOptions } from "./tools/tool-dispatcher";
