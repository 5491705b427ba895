import { describe, expect, it } from "vitest";
import * as harness from "./index";

describe("@runvil/harness entry point", () => {
  it("exports exactly the documented values", () => {
    expect(Object.keys(harness).sort()).toEqual([
      "DEFAULT_STORE_LIMITS",
      "DISPLAY_PATH_CHARACTERS",
      "DirectoryStore",
      "EventRecorder",
      "JsonLinesEventSink",
      "MAX_PATH_BYTES",
      "MAX_PATTERN_BYTES",
      "MAX_SEGMENT_BYTES",
      "MemoryEventSink",
      "MemoryStore",
      "ModelDispatcher",
      "PATH_DETAILS",
      "PATTERN_DETAILS",
      "RunPort",
      "TEMP_FILE_PREFIX",
      "ToolDispatcher",
      "applyStoreOperation",
      "checkStorePath",
      "checkUtf8",
      "compareBytewise",
      "compileGlob",
      "countOccurrences",
      "displayPath",
      "eventRecordLine",
      "parseEventRecords",
      "parseStorePath",
      "readAllFiles",
      "readEventRecords",
      "replaceAnchor",
      "resolveStoreLimits",
      "sortBytewise",
      "storeMessage",
      "stringValidUpTo",
      "utf8ValidUpTo",
    ]);
  });
});
