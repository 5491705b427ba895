import { describe, expect, it } from "vitest";
import { parseUsesEntry, type UsesEntry } from "./uses-entry";
import { findRepeatedPackId, repeatedPackIdMessage } from "./uses-list";

function entries(texts: readonly string[]): UsesEntry[] {
  return texts.map((text) => {
    const result = parseUsesEntry(text);
    if (!result.ok) throw new Error(`bad test entry ${text}: ${result.reason}`);
    return result.value;
  });
}

describe("findRepeatedPackId", () => {
  it("finds nothing in a list of distinct Pack ids", () => {
    expect(findRepeatedPackId(entries(["web", "user-input"]))).toBeUndefined();
    expect(findRepeatedPackId([])).toBeUndefined();
  });

  it("ignores vendors: web and acme/web repeat web", () => {
    expect(findRepeatedPackId(entries(["web", "acme/web"]))).toBe("web");
  });

  it("ignores vendors: web and runvil/web repeat web", () => {
    expect(findRepeatedPackId(entries(["web", "runvil/web"]))).toBe("web");
  });

  it("names the Pack id whose second appearance comes first", () => {
    expect(findRepeatedPackId(entries(["web", "user-input", "user-input", "web"]))).toBe(
      "user-input",
    );
    expect(findRepeatedPackId(entries(["web", "user-input", "web", "user-input"]))).toBe("web");
  });

  it("compares Pack ids byte for byte", () => {
    expect(findRepeatedPackId(entries(["user-input", "user_input", "user.input"]))).toBeUndefined();
  });
});

describe("repeatedPackIdMessage", () => {
  it("gives the chapter's text after the frontmatter prefix", () => {
    expect(`invalid frontmatter: ${repeatedPackIdMessage("web")}`).toBe(
      "invalid frontmatter: Pack id web is declared more than once under uses",
    );
    expect(`invalid frontmatter: ${repeatedPackIdMessage("user-input")}`).toBe(
      "invalid frontmatter: Pack id user-input is declared more than once under uses",
    );
  });
});
