import { describe, expect, it } from "vitest";
import { chunkNameForLine } from "./chunk-name";

describe("chunkNameForLine", () => {
  it("names a block after its first Lua line", () => {
    expect(chunkNameForLine(1)).toBe("line 1");
    expect(chunkNameForLine(14)).toBe("line 14");
    expect(chunkNameForLine(1200)).toBe("line 1200");
  });

  it("rejects lines that are not integers >= 1", () => {
    for (const bad of [0, -3, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => chunkNameForLine(bad)).toThrow(RangeError);
    }
  });
});
