import { describe, expect, it } from "vitest";
import { MAX_QUOTED_CHARS, quotable } from "./link-failure";

describe("quotable", () => {
  it("puts a server's text on one line and bounds it", () => {
    expect(quotable("  bad\r\n\tinput\u0007 here ")).toBe("bad input here");
    const long = quotable("x".repeat(MAX_QUOTED_CHARS + 10));
    expect(long).toBe(`${"x".repeat(MAX_QUOTED_CHARS)}…`);
  });
});
