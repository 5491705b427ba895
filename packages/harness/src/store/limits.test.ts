import { describe, expect, it } from "vitest";
import {
  DEFAULT_STORE_LIMITS,
  MAX_PATH_BYTES,
  MAX_PATTERN_BYTES,
  MAX_SEGMENT_BYTES,
  resolveStoreLimits,
  TEMP_FILE_PREFIX,
} from "./limits";

describe("store limits", () => {
  it("has the documented defaults", () => {
    expect(DEFAULT_STORE_LIMITS).toEqual({ maxFileBytes: 16_777_216, maxStoreBytes: 268_435_456 });
    expect([MAX_PATH_BYTES, MAX_SEGMENT_BYTES, MAX_PATTERN_BYTES]).toEqual([1024, 255, 4096]);
    expect(TEMP_FILE_PREFIX).toBe(".runvil-tmp");
  });

  it("applies overrides and refuses limits that are not non-negative safe integers", () => {
    expect(resolveStoreLimits({ maxFileBytes: 0 })).toEqual({
      maxFileBytes: 0,
      maxStoreBytes: 268_435_456,
    });
    expect(() => resolveStoreLimits({ maxStoreBytes: -1 })).toThrow(
      new RangeError("maxStoreBytes must be a non-negative safe integer, got -1"),
    );
    expect(() => resolveStoreLimits({ maxFileBytes: 1.5 })).toThrow(
      "maxFileBytes must be a non-negative safe integer, got 1.5",
    );
    expect(() => resolveStoreLimits({ maxFileBytes: Number.NaN })).toThrow(RangeError);
  });
});
