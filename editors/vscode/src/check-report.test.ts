import { describe, expect, it } from "vitest";
import { parseCheckReport } from "./check-report";

const diagnostic = {
  file: "p.md",
  line: 3,
  column: 1,
  endLine: 3,
  endColumn: 9,
  severity: "error",
  message: "invalid frontmatter: `name` must be a string, found a number (line 3)",
  code: "Frontmatter",
};

describe("parseCheckReport", () => {
  it("reads the report's ok flag and diagnostics, keeping the span", () => {
    const report = parseCheckReport(
      JSON.stringify({ files: [], ok: false, diagnostics: [diagnostic] }),
    );
    expect(report).toEqual({ ok: false, diagnostics: [diagnostic] });
  });

  it("keeps a diagnostic without a span without inventing one", () => {
    const { endLine, endColumn, ...point } = diagnostic;
    const report = parseCheckReport(JSON.stringify({ ok: false, diagnostics: [point] }));
    expect(report.diagnostics[0]).toEqual(point);
    expect(report.diagnostics[0]).not.toHaveProperty("endLine");
  });

  it("says what was printed when it is not JSON", () => {
    expect(() => parseCheckReport("TypeError: boom\n  at x")).toThrow(
      "runvil check --json did not print JSON: TypeError: boom",
    );
    expect(() => parseCheckReport("  \n")).toThrow("runvil check --json printed nothing");
  });

  it("refuses a report without a diagnostics list, naming an older runvil", () => {
    expect(() => parseCheckReport(JSON.stringify({ ok: true, files: [] }))).toThrow(
      "the report has no `diagnostics` list (this runvil is older than the extension)",
    );
    expect(() => parseCheckReport("[]")).toThrow("printed JSON that is not an object");
    expect(() => parseCheckReport('{"diagnostics":[]}')).toThrow("`ok` is not a boolean");
  });

  it("names the diagnostic and the field that is wrong", () => {
    const bad = (patch: Record<string, unknown>) =>
      JSON.stringify({ ok: false, diagnostics: [diagnostic, { ...diagnostic, ...patch }] });
    expect(() => parseCheckReport(bad({ line: 0 }))).toThrow(
      "diagnostics[1].line is not a line number",
    );
    expect(() => parseCheckReport(bad({ column: "1" }))).toThrow(
      "diagnostics[1].column is not a column number",
    );
    expect(() => parseCheckReport(bad({ endColumn: 2.5 }))).toThrow(
      "diagnostics[1].endColumn is not a column number",
    );
    expect(() => parseCheckReport(bad({ severity: "fatal" }))).toThrow(
      "diagnostics[1].severity is not one of error, warning, information",
    );
    expect(() => parseCheckReport(bad({ message: null }))).toThrow(
      "diagnostics[1].message is not a string",
    );
    expect(() => parseCheckReport(JSON.stringify({ ok: false, diagnostics: [7] }))).toThrow(
      "diagnostics[0] is not an object",
    );
  });
});
