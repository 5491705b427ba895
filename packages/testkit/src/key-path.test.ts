import { describe, expect, it } from "vitest";
import { formatKeyPath } from "./key-path";

describe("formatKeyPath", () => {
  it("joins identifier keys with dots and list positions with brackets", () => {
    expect(formatKeyPath(["cases", 3, "expect", "error", "kind"])).toBe(
      "cases[3].expect.error.kind",
    );
  });

  it("quotes keys that are not identifiers", () => {
    expect(formatKeyPath(["cases", 0, "store", "note.md"])).toBe('cases[0].store["note.md"]');
    expect(formatKeyPath(["web", "pages", "https://x/"])).toBe('web.pages["https://x/"]');
    expect(formatKeyPath(["fixture_preludes", "user-input"])).toBe(
      'fixture_preludes["user-input"]',
    );
  });

  it("renders the empty path as the empty string", () => {
    expect(formatKeyPath([])).toBe("");
  });

  it("starts with a bracket when the path starts with a quoted key or a position", () => {
    expect(formatKeyPath(["a b"])).toBe('["a b"]');
    expect(formatKeyPath([2, "x"])).toBe("[2].x");
  });
});
