import { describe, expect, it } from "vitest";
import { renderSearchResults } from "./render-results";

describe("renderSearchResults", () => {
  it("numbers entries, indents url and description, separates entries with a blank line", () => {
    expect(
      renderSearchResults(
        [
          { title: "One", url: "https://a.example/", description: "First." },
          { title: "Two", url: "https://b.example/", description: "Second." },
        ],
        "q",
      ),
    ).toBe("1. One\n   https://a.example/\n   First.\n\n2. Two\n   https://b.example/\n   Second.");
  });

  it("folds whitespace inside a field and leaves out empty lines", () => {
    expect(
      renderSearchResults(
        [{ title: " A\n  title ", url: "https://a.example/", description: " \n" }],
        "q",
      ),
    ).toBe("1. A title\n   https://a.example/");
  });

  it("names an untitled result", () => {
    expect(
      renderSearchResults([{ title: "", url: "https://a.example/", description: "d" }], "q"),
    ).toBe("1. (untitled)\n   https://a.example/\n   d");
  });

  it("renders no results as a sentence naming the query", () => {
    expect(renderSearchResults([], "lua 5.5")).toBe('No results for "lua 5.5".');
  });
});
