import { describe, expect, it } from "vitest";
import { DISPLAY_PATH_CHARACTERS, displayPath } from "./display";

describe("displayPath", () => {
  it("shows ordinary paths unchanged", () => {
    expect(displayPath("notes/été 😀.md")).toBe("notes/été 😀.md");
  });

  it("escapes control characters and lone surrogates", () => {
    expect(displayPath("a\u0000b\nc\u007f\u0085")).toBe("a\\u0000b\\u000ac\\u007f\\u0085");
    expect(displayPath("x\uD800")).toBe("x\\ud800");
  });

  it("cuts long paths at 200 characters (code points) and adds …", () => {
    expect(DISPLAY_PATH_CHARACTERS).toBe(200);
    expect(displayPath("x".repeat(200))).toBe("x".repeat(200));
    expect(displayPath("x".repeat(201))).toBe(`${"x".repeat(200)}…`);
    expect(displayPath("😀".repeat(201))).toBe(`${"😀".repeat(200)}…`);
  });
});
