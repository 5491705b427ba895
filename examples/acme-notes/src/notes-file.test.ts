import { describe, expect, it } from "vitest";
import { noteLine, noteProblem, parseNotes } from "./notes-file";

describe("the notes file", () => {
  it("keeps a note as one `- ` line", () => {
    expect(noteLine("buy milk")).toBe("- buy milk\n");
  });

  it("reads only the `- ` lines, oldest first", () => {
    expect(parseNotes("# Notes\n\n- one\nnot a note\n- two\r\n-three\n")).toEqual(["one", "two"]);
    expect(parseNotes("")).toEqual([]);
  });

  it("refuses an empty note and one with a line break", () => {
    expect(noteProblem("ok")).toBeUndefined();
    expect(noteProblem("  ")).toBe("the note is empty");
    expect(noteProblem("")).toBe("the note is empty");
    expect(noteProblem("a\nb")).toBe("a note must be one line");
    expect(noteProblem("a\rb")).toBe("a note must be one line");
  });
});
