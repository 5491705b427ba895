import { describe, expect, it } from "vitest";
import { compareEntryIds } from "./usage";

describe("compareEntryIds", () => {
  it("orders entry ids by their numeric segments", () => {
    expect(["0.10", "0.2", "0.1.3", "0.1", "0.0", "0.1.0.2"].sort(compareEntryIds)).toEqual([
      "0.0",
      "0.1",
      "0.1.0.2",
      "0.1.3",
      "0.2",
      "0.10",
    ]);
  });
});
