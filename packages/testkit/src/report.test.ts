import { describe, expect, it } from "vitest";
import { checkExpectations } from "./expectations";
import { loadScenarioFile } from "./load-scenarios";
import {
  type CaseResult,
  checkedCaseResult,
  countResults,
  formatReport,
  skippedCaseResult,
  summaryLine,
  toJsonReport,
} from "./report";
import type { ScenarioCase } from "./scenario-types";
import { runRecord } from "./test-support";

const FILE = loadScenarioFile({
  path: "t/cases.yaml",
  text: `cases:
  - name: passes
    prompt: p
    expect: { result: ok }
  - name: fails
    prompt: p
    expect:
      result: "a\\nb\\nc"
      outcome: failed
  - name: skipped
    skip: needs Lua 5.5
    prompt: p
    expect: { result: ok }
`,
});
function caseAt(index: number): ScenarioCase {
  const found = FILE.cases[index];
  if (found === undefined) throw new Error(`no case ${index}`);
  return found;
}
const PASSES = caseAt(0);
const FAILS = caseAt(1);
const SKIPPED = caseAt(2);

function results(): CaseResult[] {
  const run = runRecord({ result: "a\nB\nc" });
  return [
    checkedCaseResult(FILE.path, PASSES, checkExpectations(PASSES.expect, runRecord())),
    checkedCaseResult(FILE.path, FAILS, checkExpectations(FAILS.expect, run)),
    skippedCaseResult(FILE.path, SKIPPED),
  ];
}

describe("case results", () => {
  it("builds passed, failed and skipped results", () => {
    const [passed, failed, skipped] = results();
    expect(passed).toEqual({
      file: "t/cases.yaml",
      caseIndex: 0,
      caseName: "passes",
      line: 2,
      status: "passed",
      mismatches: [],
    });
    expect(failed?.status).toBe("failed");
    expect(failed?.mismatches.map((m) => m.path)).toEqual(["expect.outcome", "expect.result"]);
    expect(skipped).toEqual({
      file: "t/cases.yaml",
      caseIndex: 2,
      caseName: "skipped",
      line: 10,
      status: "skipped",
      mismatches: [],
      skipReason: "needs Lua 5.5",
    });
  });

  it("fails a case on a runner failure alone", () => {
    const result = checkedCaseResult(FILE.path, PASSES, [], "the case ran out of model replies");
    expect(result.status).toBe("failed");
    expect(result.failure).toBe("the case ran out of model replies");
  });

  it("counts each status", () => {
    expect(countResults(results())).toEqual({ passed: 1, failed: 1, skipped: 1 });
  });
});

describe("summaryLine", () => {
  it("is N passed, N failed, plus N skipped only when any was skipped", () => {
    expect(summaryLine(results())).toBe("1 passed, 1 failed, 1 skipped");
    expect(summaryLine(results().slice(0, 2))).toBe("1 passed, 1 failed");
    expect(summaryLine([])).toBe("0 passed, 0 failed");
  });
});

describe("formatReport", () => {
  it("prints a block per failing case and the closing line", () => {
    expect(formatReport(results())).toBe(
      [
        "FAIL t/cases.yaml:5: fails",
        '  expect.outcome: expected the run to end failed, but it succeeded with result "a\\nB\\nc"',
        '    expected: "failed"',
        '    actual:   "succeeded"',
        "  expect.result: the result differs at line 2, column 1",
        "    (- expected, + actual)",
        "      a",
        "    - b",
        "    + B",
        "      c",
        "",
        "1 passed, 1 failed, 1 skipped",
      ].join("\n"),
    );
  });

  it("prints a line per skipped case in verbose mode", () => {
    const text = formatReport(results(), { verbose: true });
    expect(text.split("\n\n")).toHaveLength(3);
    expect(text.split("\n\n")[1]).toBe("SKIP t/cases.yaml:10: skipped (needs Lua 5.5)");
  });

  it("prints a runner failure and absent values", () => {
    const failed = checkedCaseResult(
      FILE.path,
      PASSES,
      [
        {
          path: "expect.var",
          message: "var was not read back at the end of the run",
          expected: {},
          actual: undefined,
        },
      ],
      "the case ran out of operator answers\nafter 2 answers",
    );
    expect(formatReport([failed])).toBe(
      [
        "FAIL t/cases.yaml:2: passes",
        "  run: the case ran out of operator answers",
        "    after 2 answers",
        "  expect.var: var was not read back at the end of the run",
        "    expected: {}",
        "    actual:   (none)",
        "",
        "0 passed, 1 failed",
      ].join("\n"),
    );
  });

  it("honours diffContext", () => {
    const text = formatReport(results().slice(1, 2), { diffContext: 0 });
    expect(text).toContain(
      "    (- expected, + actual)\n      ... 1 unchanged line\n    - b\n    + B\n      ... 1 unchanged line",
    );
  });

  it("is only the closing line when everything passed", () => {
    expect(formatReport(results().slice(0, 1))).toBe("1 passed, 0 failed");
  });
});

describe("toJsonReport", () => {
  it("lists every case with counts, leaving absent values out", () => {
    const report = toJsonReport(results());
    expect(report.passed).toBe(1);
    expect(report.failed).toBe(1);
    expect(report.skipped).toBe(1);
    expect(report.cases.map((c) => [c.index, c.name, c.status])).toEqual([
      [0, "passes", "passed"],
      [1, "fails", "failed"],
      [2, "skipped", "skipped"],
    ]);
    expect(report.cases[2]?.skipReason).toBe("needs Lua 5.5");
    expect(report.cases[1]?.mismatches[0]).toEqual({
      path: "expect.outcome",
      message: 'expected the run to end failed, but it succeeded with result "a\\nB\\nc"',
      expected: "failed",
      actual: "succeeded",
    });
    expect(report.cases[1]?.mismatches[1]?.diff).toHaveLength(4);
  });

  it("round-trips through JSON", () => {
    const report = toJsonReport(results());
    expect(JSON.parse(JSON.stringify(report))).toEqual(report);
  });
});
