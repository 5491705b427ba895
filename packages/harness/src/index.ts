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
export type { DirectoryStoreFileSystem } from "./store/directory-fs";
export { DirectoryStore, type DirectoryStoreOptions } from "./store/directory-store";
export { DEFAULT_STORE_LIMITS, type StoreLimits } from "./store/limits";
export { MemoryStore, type MemoryStoreOptions } from "./store/memory-store";
export { readAllFiles } from "./store/read-all-files";
export type { StaleTemporaryRule } from "./store/stale-temporaries";
export { ToolDispatcher, type ToolDispatcherOptions } from "./tools/tool-dispatcher";
