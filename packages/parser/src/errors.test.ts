import { describe, expect, it } from "vitest";
import {
  atLine,
  atLineColumn,
  describeParseError,
  frontmatterError,
  markdownError,
  thrownText,
} from "./errors";

describe("error helpers", () => {
  it("append the line, or the line and column, at the end", () => {
    expect(atLine("no title", 7)).toBe("no title (line 7)");
    expect(atLineColumn("bad entry", 5, 8)).toBe("bad entry (line 5, column 8)");
  });

  it("build Frontmatter and Markdown errors", () => {
    expect(frontmatterError("`name` must be a string, found a number", 2)).toEqual({
      kind: "Frontmatter",
      message: "invalid frontmatter: `name` must be a string, found a number (line 2)",
      line: 2,
    });
    expect(markdownError("no title", 6)).toEqual({
      kind: "Markdown",
      message: "no title (line 6)",
      line: 6,
    });
  });

  it("describe an error for people, with its path when it has one", () => {
    expect(describeParseError({ kind: "Markdown", message: "no title (line 6)" })).toBe(
      "no title (line 6)",
    );
    expect(
      describeParseError({ kind: "Markdown", message: "no title (line 6)", path: "a.md" }),
    ).toBe("a.md: no title (line 6)");
  });

  it("read thrown values", () => {
    expect(thrownText(new RangeError("too deep"))).toBe("too deep");
    expect(thrownText("plain")).toBe("plain");
  });
});
