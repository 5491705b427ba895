import { describe, expect, it } from "vitest";
import { clearIndices, keepLastIndices, summaryCut } from "./record-selection";

// system, user (task), assistant+calls, tool, tool, assistant, user, assistant+calls, tool
const ROLES = [
  "system",
  "user",
  "assistant",
  "tool",
  "tool",
  "assistant",
  "user",
  "assistant",
  "tool",
];

describe("keepLastIndices", () => {
  it("keeps the system records, the first user record and the last n others", () => {
    expect(keepLastIndices(ROLES, 3)).toEqual([0, 1, 6, 7, 8]);
  });

  it("moves the cut earlier until the kept part does not start with a tool record", () => {
    expect(keepLastIndices(ROLES, 1)).toEqual([0, 1, 7, 8]);
    expect(keepLastIndices(ROLES, 4)).toEqual([0, 1, 5, 6, 7, 8]);
    expect(keepLastIndices(ROLES, 5)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it("keeps everything when n covers every record", () => {
    expect(keepLastIndices(ROLES, 100)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(keepLastIndices(["user"], 1)).toEqual([0]);
  });

  it("keeps system records wherever they stand", () => {
    expect(keepLastIndices(["user", "assistant", "system", "user", "assistant"], 1)).toEqual([
      0, 2, 4,
    ]);
  });

  it("counts a record with no role string as an ordinary record", () => {
    expect(keepLastIndices(["user", null, "assistant"], 1)).toEqual([0, 2]);
  });
});

describe("clearIndices", () => {
  it("keeps the system records and the last user record", () => {
    expect(clearIndices(ROLES)).toEqual([0, 6]);
    expect(clearIndices(["user", "assistant", "system"])).toEqual([0, 2]);
    expect(clearIndices(["assistant"])).toEqual([]);
  });
});

describe("summaryCut", () => {
  it("keeps the last `keep` records that are not system records, out of a tool round", () => {
    expect(summaryCut(ROLES, 2)).toEqual({ start: 7, older: [1, 2, 3, 4, 5, 6] });
    expect(summaryCut(ROLES, 1)).toEqual({ start: 7, older: [1, 2, 3, 4, 5, 6] });
    expect(summaryCut(ROLES, 3)).toEqual({ start: 6, older: [1, 2, 3, 4, 5] });
    expect(summaryCut(ROLES, 5)).toEqual({ start: 2, older: [1] });
  });

  it("has nothing older when `keep` covers the conversation", () => {
    expect(summaryCut(ROLES, 8)).toEqual({ start: 1, older: [] });
    expect(summaryCut(ROLES, 20)).toEqual({ start: 1, older: [] });
    expect(summaryCut(["system"], 1)).toEqual({ start: 1, older: [] });
  });
});
