import { describe, expect, it } from "vitest";
import type { CheckDiagnostic } from "./check-report";
import { toEditorDiagnostic } from "./editor-diagnostic";

const base: CheckDiagnostic = {
  file: "p.md",
  line: 14,
  column: 3,
  severity: "error",
  message: "lua compilation error at section `Count` prologue (line 13): ...",
  code: "Lua",
};
const lines = (lengths: Record<number, number>) => (line: number) => lengths[line];

describe("toEditorDiagnostic", () => {
  it("moves a 1-based span to the editor's 0-based range, the end column staying exclusive", () => {
    const mapped = toEditorDiagnostic(
      { ...base, line: 5, column: 3, endLine: 5, endColumn: 13, severity: "warning" },
      lines({}),
    );
    expect(mapped).toEqual({
      start: { line: 4, character: 2 },
      end: { line: 4, character: 12 },
      severity: "warning",
      message: base.message,
      code: "Lua",
      source: "runvil",
    });
  });

  it("runs a diagnostic without a span to the end of its line", () => {
    const mapped = toEditorDiagnostic({ ...base, line: 1, column: 1 }, lines({ 0: 3 }));
    expect(mapped.start).toEqual({ line: 0, character: 0 });
    expect(mapped.end).toEqual({ line: 0, character: 3 });
  });

  it("covers one character when the line is unknown, empty or shorter than the column", () => {
    expect(toEditorDiagnostic(base, lines({})).end).toEqual({ line: 13, character: 3 });
    expect(toEditorDiagnostic(base, lines({ 13: 0 })).end).toEqual({ line: 13, character: 3 });
    expect(toEditorDiagnostic(base, lines({ 13: 2 })).end).toEqual({ line: 13, character: 3 });
  });

  it("clamps a line past the document's end to its last line", () => {
    const mapped = toEditorDiagnostic(
      { ...base, line: 40, endLine: 41, endColumn: 2 },
      lines({}),
      10,
    );
    expect(mapped.start.line).toBe(9);
    expect(mapped.end.line).toBe(9);
    expect(toEditorDiagnostic({ ...base, line: 3 }, lines({}), 0).start.line).toBe(0);
  });
});
