import { describe, expect, it } from "vitest";
import { blockAround, errorLine, MAX_ERROR_LINES, sectionLines } from "./ending-view";

const PROMPT = [
  "---",
  "name: x",
  "---",
  "",
  "# X",
  "",
  "```lua",
  "local a = 1",
  "error('no')",
  "```",
  "",
  "## Two",
  "",
  "Prose.",
  "```lua",
  "return 1",
  "```",
];

describe("where an error is in the prompt", () => {
  it("reads the line after the failed block's label, else the first label:N:", () => {
    expect(errorLine("H1 `X` lua:9: no", "H1 `X` lua", 17)).toBe(9);
    expect(errorLine("note.md:3: runtime error: H1 `X` lua:9: no", "H1 `X` lua", 17)).toBe(9);
    expect(errorLine("something:8: odd", null, 17)).toBe(8);
    expect(errorLine("no line here", "H1 `X` lua", 17)).toBeNull();
    expect(errorLine("x:99: past the end", null, 17)).toBeNull();
  });

  it("shows the fenced block around the line, fences included", () => {
    expect(blockAround(PROMPT, 9).map((l) => [l.n, l.text, l.marked])).toEqual([
      [7, "```lua", false],
      [8, "local a = 1", false],
      [9, "error('no')", true],
      [10, "```", false],
    ]);
  });

  it("keeps at most MAX_ERROR_LINES lines of a long block, the line among them", () => {
    const long = ["```lua", ...Array.from({ length: 200 }, (_, i) => `line ${i + 2}`), "```"];
    const shown = blockAround(long, 150);
    expect(shown).toHaveLength(MAX_ERROR_LINES);
    expect(shown.find((l) => l.marked)?.n).toBe(150);
  });

  it("falls back to the section's heading and its first block", () => {
    expect(sectionLines(PROMPT, "Two").map((l) => [l.n, l.marked])).toEqual([
      [12, true],
      [13, false],
      [14, false],
      [15, false],
      [16, false],
      [17, false],
    ]);
    expect(sectionLines(PROMPT, "Missing")).toEqual([]);
  });
});
