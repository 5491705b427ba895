import { describe, expect, it } from "vitest";
import { describeIssue, ScenarioFormatError } from "./format-error";

describe("describeIssue", () => {
  it("names file, line, key path and case", () => {
    expect(
      describeIssue({
        file: "a.yaml",
        line: 7,
        caseIndex: 2,
        caseName: "one",
        keyPath: "cases[2].expect.outcome",
        message: "must be one of succeeded, failed, cancelled",
      }),
    ).toBe(
      'a.yaml:7: cases[2].expect.outcome (case "one"): must be one of succeeded, failed, cancelled',
    );
  });

  it("leaves out what is unknown", () => {
    expect(describeIssue({ file: "a.yaml", keyPath: "", message: "invalid YAML: x" })).toBe(
      "a.yaml: invalid YAML: x",
    );
    expect(describeIssue({ file: "a.yaml", line: 1, keyPath: "cases", message: "m" })).toBe(
      "a.yaml:1: cases: m",
    );
  });
});

describe("ScenarioFormatError", () => {
  it("lists every issue and repeats the first one's details", () => {
    const error = new ScenarioFormatError("a.yaml", [
      {
        file: "a.yaml",
        line: 3,
        caseIndex: 0,
        caseName: "x",
        keyPath: "cases[0].name",
        message: "m1",
      },
      { file: "a.yaml", line: 9, keyPath: "cases[1]", message: "m2" },
    ]);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe("ScenarioFormatError");
    expect(error.message).toBe('a.yaml:3: cases[0].name (case "x"): m1\na.yaml:9: cases[1]: m2');
    expect([error.file, error.line, error.caseIndex, error.caseName, error.keyPath]).toEqual([
      "a.yaml",
      3,
      0,
      "x",
      "cases[0].name",
    ]);
    expect(error.issues).toHaveLength(2);
  });

  it("never has an empty issue list", () => {
    const error = new ScenarioFormatError("a.yaml", []);
    expect(error.issues).toEqual([
      { file: "a.yaml", keyPath: "", message: "invalid scenario file" },
    ]);
    expect(error.message).toBe("a.yaml: invalid scenario file");
  });
});
